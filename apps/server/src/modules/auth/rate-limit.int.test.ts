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

describe('sign-in rate limit', () => {
  it(`slows an identifier after ${LOGIN_MAX_FAILURES_PER_IDENTIFIER} failures, from any new device (backoff, not a lock)`, async () => {
    const user = await createTestUser(t.db);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER; i++) {
      expect((await new TestClient(t.app).login(user.email, `wrong-${i}`)).statusCode).toBe(401);
    }
    // Even the right password now waits, from a device that never signed in to the account.
    const blocked = await new TestClient(t.app).login(user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      errorStatusCode: 429,
      errorDescription: expect.stringMatching(
        /^Too many failed sign-in attempts\. Please try again in \d+ (seconds?|minutes?)\.$/,
      ),
    });
    // Was a 15-minute lock (the whole window); now the first wait is the backoff's base.
    expect(Number(blocked.headers['retry-after'])).toBe(LOGIN_BACKOFF_BASE_SECONDS);
    const [limited] = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, user.id), eq(loginEvents.eventType, 'LOGIN_RATE_LIMITED')));
    expect(limited).toBeDefined();

    // After the wait the account opens again (login-throttle.int.test.ts has the doubling).
    t.clock.advance(LOGIN_BACKOFF_BASE_SECONDS);
    try {
      expect((await new TestClient(t.app).login(user.email, user.password)).statusCode).toBe(200);
    } finally {
      t.clock.advance(-LOGIN_BACKOFF_BASE_SECONDS);
    }
  });

  it('a successful sign-in starts the count afresh', async () => {
    const user = await createTestUser(t.db);
    const browser = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER - 1; i++) await browser.login(user.email, 'wrong');
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER - 1; i++) await browser.login(user.email, 'wrong');
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
  });

  it('counts unknown identifiers too, with the same 429', async () => {
    const browser = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IDENTIFIER; i++) await browser.login('ghost@test.local', 'x');
    expect((await new TestClient(t.app).login('ghost@test.local', 'x')).statusCode).toBe(429);
  });

  it(`slows a client address after ${LOGIN_MAX_FAILURES_PER_ADDRESS} failures across identifiers`, async () => {
    const attacker = new TestClient(t.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await attacker.login(`victim-${i}@test.local`, 'guess')).statusCode).toBe(401);
    }
    const user = await createTestUser(t.db);
    const blocked = await attacker.login(user.email, user.password);
    expect(blocked.statusCode).toBe(429);
    // The same account from another address is fine.
    expect((await new TestClient(t.app).login(user.email, user.password)).statusCode).toBe(200);
  });

  it('takes the client address from X-Forwarded-For (behind the proxy)', async () => {
    const address = '203.0.113.77';
    // The reverse proxy runs on the same host (TRUST_PROXY default: loopback).
    const browser = new TestClient(t.app, { address: '127.0.0.1' });
    await browser.post(
      '/api/do-login',
      { email: 'nobody-xff@test.local', password: 'x' },
      { 'x-forwarded-for': address },
    );
    const [event] = await t.db
      .select()
      .from(loginEvents)
      .where(eq(loginEvents.email, 'nobody-xff@test.local'));
    expect(event?.clientAddress).toBe(address);
  });

  it('ignores X-Forwarded-For from a client that talks to us directly', async () => {
    const browser = new TestClient(t.app, { address: '198.51.100.9' });
    await browser.post(
      '/api/do-login',
      { email: 'nobody-direct@test.local', password: 'x' },
      { 'x-forwarded-for': '203.0.113.99' },
    );
    const [event] = await t.db
      .select()
      .from(loginEvents)
      .where(eq(loginEvents.email, 'nobody-direct@test.local'));
    expect(event?.clientAddress).toBe('198.51.100.9');
  });
});
