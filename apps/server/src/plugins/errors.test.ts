import { describe, expect, it } from 'vitest';
import { AppError } from '@radflow/core';
import { TooManyRequestsError } from '../errors.js';
import { toErrorReply } from './errors.js';

const TXN = 'txn-1';

describe('toErrorReply', () => {
  it('maps an AppError to its status and the spec error body', () => {
    expect(toErrorReply(new AppError('UNAUTHORIZED', 'Invalid credentials'), TXN)).toEqual({
      statusCode: 401,
      body: {
        errorStatusCode: 401,
        errorDescription: 'Invalid credentials',
        additionalInfo: null,
        txnId: TXN,
      },
    });
  });

  it("uses the spec's internal codes 5002 and 4002", () => {
    const device = toErrorReply(
      new AppError('INVALID_DEVICE_ID', 'Your login needs to be approved by admin'),
      TXN,
    );
    expect(device).toMatchObject({ statusCode: 403, body: { errorStatusCode: 5002 } });
    const already = toErrorReply(new AppError('ALREADY_PRESENT', 'already', 'd1'), TXN);
    expect(already).toMatchObject({ statusCode: 409, body: { errorStatusCode: 4002, additionalInfo: 'd1' } });
  });

  it('carries Retry-After for a 429', () => {
    expect(toErrorReply(new TooManyRequestsError('slow down', 90), TXN)).toMatchObject({
      statusCode: 429,
      retryAfterSeconds: 90,
      body: { errorStatusCode: 429, errorDescription: 'slow down' },
    });
  });

  it("maps fastify's body errors to 400/413/415", () => {
    const withCode = (code: string, statusCode: number) =>
      Object.assign(new Error('x'), { code, statusCode });
    expect(toErrorReply(withCode('FST_ERR_CTP_INVALID_JSON_BODY', 400), TXN).statusCode).toBe(400);
    expect(toErrorReply(withCode('FST_ERR_CTP_BODY_TOO_LARGE', 413), TXN).statusCode).toBe(413);
    expect(toErrorReply(withCode('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415), TXN).statusCode).toBe(415);
    expect(toErrorReply(new SyntaxError('Unexpected end of JSON input'), TXN).statusCode).toBe(400);
    expect(toErrorReply(withCode('FST_ERR_SOMETHING_ELSE', 422), TXN)).toMatchObject({ statusCode: 422 });
  });

  it('hides the details of unexpected errors behind a 500', () => {
    const reply = toErrorReply(new Error('connection refused to 10.0.0.5'), TXN);
    expect(reply).toEqual({
      statusCode: 500,
      body: {
        errorStatusCode: 500,
        errorDescription: 'Internal server error',
        additionalInfo: null,
        txnId: TXN,
      },
    });
    expect(toErrorReply('a string', TXN).statusCode).toBe(500);
    expect(toErrorReply(null, TXN).statusCode).toBe(500);
  });
});
