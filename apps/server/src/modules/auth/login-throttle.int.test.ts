import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  LOGIN_BACKOFF_BASE_SECONDS,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_IDENTIFIER,
} from '@radflow/core';
import { loginEvents } from '../../db/schema.js';
import { type TestApp, TestClient, createTestApp, createTestUser } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Moves the test clock, and back after the test. */
let moved = 0;
function advance(seconds: number) {
  moved += seconds;
  t.clock.advance(seconds);
}
afterAll(() => t.clock.advance(-moved));

const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

describe('failed attempts slow down (backoff), never lock the owner out', () => {
  it('an attacker elsewhere cannot lock the owner out of the device they sign in from', async () => {
    const user = await createTestUser(t.db);
    const owner = new TestClient(t.app);
    expect((await owner.login(user.email, user.password)).statusCode).toBe(200);

    const attacker = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER; i++) {
      expect((await attacker.login(user.email, `guess-${i}`)).statusCode).toBe(401);
    }
    // The attacker is slowed down...
    expect((await attacker.login(user.email, 'guess-x')).statusCode).toBe(429);
    // ...and from a fresh address and device too (the account's failures count for unknown devices).
    expect((await new TestClient(t.app).login(user.email, 'guess-y')).statusCode).toBe(429);
    // The owner's own device is not.
    expect((await owner.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('each failure past the free ones doubles the wait (429 with Retry-After), then the right password works', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER; i++) {
      expect((await browser.login(user.email, `wrong-${i}`)).statusCode).toBe(401);
    }
    const first = await browser.login(user.email, user.password);
    expect(first.statusCode).toBe(429);
    expect(first.json().errorDescription).toMatch(
      /^Too many failed sign-in attempts\. Please try again in \d+ (seconds?|minutes?)\.$/,
    );
    expect(retryAfter(first)).toBe(LOGIN_BACKOFF_BASE_SECONDS);

    advance(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await browser.login(user.email, 'wrong-again')).statusCode).toBe(401);
    const second = await browser.login(user.email, user.password);
    expect(second.statusCode).toBe(429);
    expect(retryAfter(second)).toBe(2 * LOGIN_BACKOFF_BASE_SECONDS);

    advance(2 * LOGIN_BACKOFF_BASE_SECONDS);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    const limited = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, user.id), eq(loginEvents.eventType, 'LOGIN_RATE_LIMITED')));
    expect(limited).toHaveLength(2);
  });

  it(`slows an address after ${LOGIN_MAX_FAILURES_PER_ADDRESS} failures across accounts, for a while only`, async () => {
    const attacker = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await attacker.login(`spray-${i}@test.local`, 'guess')).statusCode).toBe(401);
    }
    const user = await createTestUser(t.db);
    const blocked = await attacker.login(user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(retryAfter(blocked)).toBe(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await new TestClient(t.app).login(user.email, user.password)).statusCode).toBe(200);
    advance(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await attacker.login(user.email, user.password)).statusCode).toBe(200);
  });
});

describe('change-password: the current password is throttled the same way', () => {
  it('wrong current passwords are logged and slowed down with 429', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    const change = (currentPassword: string) =>
      browser.post('/api/user-create/update-password', {
        currentPassword,
        newPassword: 'a fresh passphrase',
      });
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER; i++) {
      const res = await change(`not-it-${i}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorDescription).toBe('Current password is incorrect');
    }
    const limited = await change(user.password);
    expect(limited.statusCode).toBe(429);
    expect(retryAfter(limited)).toBe(LOGIN_BACKOFF_BASE_SECONDS);
    const failures = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, user.id), eq(loginEvents.eventType, 'PASSWORD_CHANGE_FAILED')));
    expect(failures).toHaveLength(LOGIN_MAX_FAILURES_PER_IDENTIFIER);

    advance(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await change(user.password)).statusCode).toBe(200);
  });
});
