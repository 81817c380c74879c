import { describe, expect, it } from 'vitest';
import {
  APP_ERROR_KINDS,
  AppError,
  INTERNAL_CODES,
  type TAppErrorKind,
  ZErrorBody,
  decodeErrorBody,
  formatErrorMessage,
  isDeviceApprovalError,
} from './errors.js';

function createErrorBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    errorStatusCode: 400,
    errorDescription: 'Invalid request',
    additionalInfo: 'email: required',
    txnId: 'req-1',
    ...overrides,
  };
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('AppError (spec-core §8, issue 2 §2)', () => {
  it.each<[TAppErrorKind, number, number]>([
    ['BAD_REQUEST', 400, 400],
    ['UNAUTHORIZED', 401, 401],
    ['FORBIDDEN', 403, 403],
    ['NOT_FOUND', 404, 404],
    ['NOT_ACCEPTABLE', 406, 406],
    ['CONFLICT', 409, 409],
    ['PAYLOAD_TOO_LARGE', 413, 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415, 415],
    ['TOO_MANY_REQUESTS', 429, 429],
    ['INVALID_DEVICE_ID', 403, 5002],
    ['ALREADY_PRESENT', 409, 4002],
    ['INTERNAL', 500, 500],
    ['UPSTREAM_FAILED', 502, 502],
    ['PAYMENT_REQUIRED', 402, 402],
  ])('%s → HTTP %i, errorStatusCode %i', (kind, httpStatus, errorStatusCode) => {
    const error = new AppError(kind, 'message');
    expect(error.httpStatus).toBe(httpStatus);
    expect(error.errorStatusCode).toBe(errorStatusCode);
  });

  it('covers every kind in the table above', () => {
    expect(Object.keys(APP_ERROR_KINDS)).toHaveLength(14);
  });

  it('names the spec internal codes', () => {
    expect(INTERNAL_CODES).toEqual({ ALREADY_PRESENT: 4002, INVALID_DEVICE_ID: 5002 });
  });

  it('is an Error that carries its message and additional info', () => {
    const error = new AppError('BAD_REQUEST', 'email is required', 'email');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AppError');
    expect(error.message).toBe('email is required');
    expect(error.additionalInfo).toBe('email');
    expect(new AppError('NOT_FOUND', 'x').additionalInfo).toBeNull();
  });
});

describe('ZErrorBody', () => {
  it('accepts the spec body and rejects one without txnId', () => {
    expect(ZErrorBody.safeParse(createErrorBody()).success).toBe(true);
    expect(ZErrorBody.safeParse(createErrorBody({ additionalInfo: null })).success).toBe(true);
    const { txnId: _txnId, ...withoutTxn } = createErrorBody();
    expect(ZErrorBody.safeParse(withoutTxn).success).toBe(false);
  });
});

describe('formatErrorMessage (spec-core §8 "Other error responses")', () => {
  it('builds the message from errorDescription, additionalInfo, errorStatusCode and txnId', () => {
    expect(formatErrorMessage(createErrorBody())).toBe(
      'Invalid request: email: required (code 400, ref req-1)',
    );
  });

  it('leaves out the parts that are missing', () => {
    expect(formatErrorMessage(createErrorBody({ additionalInfo: null }))).toBe(
      'Invalid request (code 400, ref req-1)',
    );
    expect(formatErrorMessage({ errorDescription: 'Invalid request', errorStatusCode: 5002 })).toBe(
      'Invalid request (code 5002)',
    );
    expect(formatErrorMessage({ errorDescription: 'Invalid request', txnId: 'abc' })).toBe(
      'Invalid request (ref abc)',
    );
    expect(formatErrorMessage({ errorDescription: 'Invalid request' })).toBe('Invalid request');
  });

  it('truncates to 150 characters', () => {
    const message = formatErrorMessage(createErrorBody({ errorDescription: 'x'.repeat(400) }));
    expect(message).toHaveLength(150);
    expect(message.startsWith('x'.repeat(149))).toBe(true);
  });

  it('keeps a message of exactly 150 characters whole', () => {
    const description = 'y'.repeat(150);
    expect(formatErrorMessage({ errorDescription: description })).toBe(description);
    expect(formatErrorMessage({ errorDescription: `${description}z` })).toHaveLength(150);
    expect(formatErrorMessage({ errorDescription: `${description}z` })).not.toBe(
      `${description}z`.slice(0, 150),
    );
  });

  it.each<[string, unknown]>([
    ['a plain string body', 'Internal Server Error'],
    ['a JSON-looking string body', '{"errorDescription":"x"}'],
    ['an empty body', ''],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['an array', [1, 2]],
    ['an empty object', {}],
    ['a body with a non-string description', { errorDescription: 5 }],
    ['a body with an empty description', { errorDescription: '' }],
    ['a body with a string status code', { errorDescription: 'x', errorStatusCode: '500' }],
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
  ])('gives Please try again for %s', (_name, body) => {
    expect(formatErrorMessage(body)).toBe('Please try again');
  });

  it('decodes a binary error body first (bytes or ArrayBuffer)', () => {
    const bytes = encode(createErrorBody());
    expect(formatErrorMessage(bytes)).toBe('Invalid request: email: required (code 400, ref req-1)');
    expect(formatErrorMessage(bytes.buffer)).toBe('Invalid request: email: required (code 400, ref req-1)');
  });

  it('decodes only the bytes of a view into a larger buffer', () => {
    const inner = encode({ errorDescription: 'Zip failed' });
    const padded = new Uint8Array(inner.length + 8);
    padded.set(inner, 4);
    expect(formatErrorMessage(new Uint8Array(padded.buffer, 4, inner.length))).toBe('Zip failed');
  });

  it('gives Please try again for binary garbage', () => {
    expect(formatErrorMessage(new Uint8Array([0xff, 0x00, 0x12]))).toBe('Please try again');
    expect(formatErrorMessage(new TextEncoder().encode('"just text"'))).toBe('Please try again');
  });
});

describe('decodeErrorBody', () => {
  it('returns what is not binary unchanged', () => {
    const body = createErrorBody();
    expect(decodeErrorBody(body)).toBe(body);
    expect(decodeErrorBody('text')).toBe('text');
  });
});

describe('isDeviceApprovalError (spec-core §8 HTTP 403)', () => {
  it.each<[string, unknown, boolean]>([
    ['INVALID_DEVICE_ID 5002', createErrorBody({ errorStatusCode: 5002 }), true],
    ['ALREADY_PRESENT 4002', createErrorBody({ errorStatusCode: 4002 }), false],
    ['a plain 403', createErrorBody({ errorStatusCode: 403 }), false],
    ['5002 as a string', createErrorBody({ errorStatusCode: '5002' }), false],
    ['a string body', 'Forbidden', false],
    ['null', null, false],
    ['undefined', undefined, false],
    ['a binary 5002 body', encode(createErrorBody({ errorStatusCode: 5002 })), true],
  ])('%s → %s', (_name, body, expected) => {
    expect(isDeviceApprovalError(body)).toBe(expected);
  });

  it('recognises the body the server builds from an INVALID_DEVICE_ID AppError', () => {
    const error = new AppError('INVALID_DEVICE_ID', 'Your login needs to be approved by admin');
    expect(isDeviceApprovalError({ errorStatusCode: error.errorStatusCode })).toBe(true);
    expect(error.httpStatus).toBe(403);
  });
});
