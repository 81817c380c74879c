import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { WEASIS_TOKEN_PREFIX, signWeasisToken, verifyWeasisToken } from './weasis-token.js';

/** The token needs only the clock and the secrets of the context. */
function contextAt(seconds: number, secret = 'secret-a'): AppContext {
  return {
    now: () => new Date(seconds * 1000),
    secrets: {
      hmac: async (name: string, data: string) =>
        createHmac('sha256', `${secret}:${name}`).update(data).digest(),
    },
  } as unknown as AppContext;
}

describe('Weasis study token', () => {
  it('round-trips its grant until it expires', async () => {
    const ctx = contextAt(1_000);
    const token = await signWeasisToken(ctx, { reportStatusId: 12, userId: 34, expiresAt: 1_060 });
    expect(token.startsWith(WEASIS_TOKEN_PREFIX)).toBe(true);
    expect(await verifyWeasisToken(ctx, token)).toEqual({
      ok: true,
      grant: { reportStatusId: 12, userId: 34, expiresAt: 1_060 },
    });
    expect(await verifyWeasisToken(contextAt(1_060), token)).toEqual({ ok: false, reason: 'EXPIRED' });
  });

  it('fits the router’s 100-character path parameter with the largest ids', async () => {
    const token = await signWeasisToken(contextAt(0), {
      reportStatusId: 2_147_483_647,
      userId: 2_147_483_647,
      expiresAt: 9_999_999_999,
    });
    expect(token.length).toBeLessThanOrEqual(100);
  });

  it('refuses a changed payload, another server’s signature and junk', async () => {
    const ctx = contextAt(1_000);
    const token = await signWeasisToken(ctx, { reportStatusId: 12, userId: 34, expiresAt: 2_000 });
    const [, payload = '', mac = ''] = token.split('.');
    const forged = `${WEASIS_TOKEN_PREFIX}${Buffer.from('13.34.2000').toString('base64url')}.${mac}`;
    expect(await verifyWeasisToken(ctx, forged)).toEqual({ ok: false, reason: 'INVALID' });
    expect(await verifyWeasisToken(contextAt(1_000, 'secret-b'), token)).toEqual({
      ok: false,
      reason: 'INVALID',
    });
    expect(await verifyWeasisToken(ctx, `rf1.${payload}.${mac}`)).toEqual({ ok: false, reason: 'INVALID' });
    expect(await verifyWeasisToken(ctx, `${WEASIS_TOKEN_PREFIX}${payload}`)).toEqual({
      ok: false,
      reason: 'INVALID',
    });
  });
});
