import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS, SIGN_IN_OTP_MAX_PER_ADDRESS } from '@radflow/core';
import { loginEvents, messageOutbox, otpCodes } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestUser,
  readOtpFromOutbox,
  uniqueMobile,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function userWithMobile(opts: { active?: boolean } = {}) {
  const mobile = uniqueMobile();
  const user = await createTestUser(t.db, { mobileNumber: mobile, roles: ['ROLE_CUSTOMER'], ...opts });
  return { user, mobile };
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-in by mobile one-time code', () => {
  it('refuses a value that is not a mobile number with the spec message', async () => {
    for (const mobile of ['doctor@demo.local', '12345', '5876543210', '98765432101']) {
      const res = await new TestClient(t.app).post('/api/user/generate-otp', { mobile });
      expect(res.statusCode, mobile).toBe(400);
      expect(res.json()).toMatchObject({
        errorDescription: 'Only mobile numbers are supported for otp',
        additionalInfo: 'mobile',
      });
    }
  });

  it('answers 404 for a mobile number without an account (or an inactive one)', async () => {
    const res = await new TestClient(t.app).post('/api/user/generate-otp', { mobile: uniqueMobile() });
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDescription).toBe('No account is registered with this mobile number');
    const { mobile } = await userWithMobile({ active: false });
    expect((await new TestClient(t.app).post('/api/user/generate-otp', { mobile })).statusCode).toBe(404);
  });

  it('limits code requests per client address, for numbers without an account too', async () => {
    // An address that tries number after number learns which have an account (200 against 404):
    // the look-up limit of is-new must not have a door beside it.
    const scanner = new TestClient(t.app);
    for (let i = 0; i < SIGN_IN_OTP_MAX_PER_ADDRESS; i += 1) {
      const res = await scanner.post('/api/user/generate-otp', { mobile: uniqueMobile() });
      expect(res.statusCode, `request ${i + 1}`).toBe(404);
    }
    const { mobile } = await userWithMobile();
    const refused = await scanner.post('/api/user/generate-otp', { mobile });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.select().from(otpCodes).where(eq(otpCodes.mobile, mobile))).toEqual([]);
    // Another address still gets its code.
    expect((await new TestClient(t.app).post('/api/user/generate-otp', { mobile })).statusCode).toBe(200);
  });

  it('tells whether a mobile number is new', async () => {
    const { mobile } = await userWithMobile();
    expect((await new TestClient(t.app).post('/api/user/customer/is-new', { mobile })).json()).toEqual({
      isNew: false,
    });
    const fresh = await new TestClient(t.app).post('/api/user/customer/is-new', { mobile: uniqueMobile() });
    expect(fresh.json()).toEqual({ isNew: true });
    const bad = await new TestClient(t.app).post('/api/user/customer/is-new', { mobile: 'abc' });
    expect(bad.statusCode).toBe(400);
  });

  it('sends a code by SMS (the outbox), signs in with it once, and a reuse fails', async () => {
    const { user, mobile } = await userWithMobile();
    const browser = new TestClient(t.app);
    const sent = await browser.post('/api/user/generate-otp', { mobile });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ sent: true, expiresInSeconds: OTP_TTL_SECONDS });

    const [message] = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, mobile));
    expect(message).toMatchObject({ channel: 'SMS' });
    expect(message?.body).toMatch(/^Your Radflow sign-in code is \d{6}\. It expires in 5 minutes\.$/);
    const code = await readOtpFromOutbox(t.db, mobile);
    // Only a keyed hash of the code is stored.
    const [stored] = await t.db.select().from(otpCodes).where(eq(otpCodes.mobile, mobile));
    expect(stored?.codeHash).not.toContain(code);

    const res = await browser.post('/api/do-login', { email: ` ${mobile} `, password: code });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(user.email);
    expect((await browser.get('/api/user/')).statusCode).toBe(200);

    const reuse = await new TestClient(t.app).post('/api/do-login', { email: mobile, password: code });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().errorDescription).toBe('Invalid credentials');

    const events = await t.db.select().from(loginEvents).where(eq(loginEvents.userId, user.id));
    expect(events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining(['OTP_SENT', 'LOGIN_SUCCESS', 'OTP_FAILED']),
    );
  });

  it('a code works once even when two sign-ins race with it', async () => {
    const { mobile } = await userWithMobile();
    await new TestClient(t.app).post('/api/user/generate-otp', { mobile });
    const code = await readOtpFromOutbox(t.db, mobile);
    const results = await Promise.all(
      [1, 2, 3].map(() => new TestClient(t.app).post('/api/do-login', { email: mobile, password: code })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('mirrors the SMS to OUTBOX_MIRROR_FILE as a JSON line when configured', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radflow-outbox-'));
    const mirrorFile = path.join(dir, 'outbox.jsonl');
    const mirrored = await createTestApp({ outboxMirrorFile: mirrorFile });
    try {
      const mobile = uniqueMobile();
      await createTestUser(mirrored.db, { mobileNumber: mobile });
      await new TestClient(mirrored.app).post('/api/user/generate-otp', { mobile });
      const [line] = (await fs.readFile(mirrorFile, 'utf8')).trim().split('\n');
      expect(JSON.parse(line ?? '')).toMatchObject({
        channel: 'SMS',
        recipient: mobile,
        body: await readOtpFromOutbox(mirrored.db, mobile).then((code) => expect.stringContaining(code)),
        createdAt: expect.any(String),
      });
    } finally {
      await mirrored.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('accepts the form-encoded post of the OTP form (field named password)', async () => {
    const { mobile } = await userWithMobile();
    const browser = new TestClient(t.app);
    await browser.post('/api/user/generate-otp', { mobile });
    const code = await readOtpFromOutbox(t.db, mobile);
    const res = await browser.request({
      method: 'POST',
      url: '/api/do-login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${mobile}&password=${code}`,
    });
    expect(res.statusCode).toBe(200);
  });

  it('a new code replaces the earlier one', async () => {
    const { mobile } = await userWithMobile();
    const browser = new TestClient(t.app);
    await browser.post('/api/user/generate-otp', { mobile });
    const first = await readOtpFromOutbox(t.db, mobile);
    await browser.post('/api/user/generate-otp', { mobile });
    const second = await readOtpFromOutbox(t.db, mobile);
    if (first !== second) {
      expect((await browser.post('/api/do-login', { email: mobile, password: first })).statusCode).toBe(401);
    }
    expect((await browser.post('/api/do-login', { email: mobile, password: second })).statusCode).toBe(200);
  });

  it('an expired code fails', async () => {
    const { mobile } = await userWithMobile();
    const browser = new TestClient(t.app);
    await browser.post('/api/user/generate-otp', { mobile });
    const code = await readOtpFromOutbox(t.db, mobile);
    t.clock.advance(OTP_TTL_SECONDS + 1);
    try {
      expect((await browser.post('/api/do-login', { email: mobile, password: code })).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(OTP_TTL_SECONDS + 1));
    }
    // Expiry stored in the database is what counts.
    await browser.post('/api/user/generate-otp', { mobile });
    const next = await readOtpFromOutbox(t.db, mobile);
    await t.db
      .update(otpCodes)
      .set({ expiresAt: new Date(t.app.ctx.now().getTime() - 1000) })
      .where(eq(otpCodes.mobile, mobile));
    expect((await browser.post('/api/do-login', { email: mobile, password: next })).statusCode).toBe(401);
  });

  it(`kills the code after ${OTP_MAX_ATTEMPTS} wrong tries`, async () => {
    const { mobile } = await userWithMobile();
    const browser = new TestClient(t.app);
    await browser.post('/api/user/generate-otp', { mobile });
    const code = await readOtpFromOutbox(t.db, mobile);
    for (let i = 0; i < OTP_MAX_ATTEMPTS - 1; i++) {
      // Each from its own address so that only the code's own limit is at work.
      const res = await new TestClient(t.app).post('/api/do-login', {
        email: mobile,
        password: wrongCode(code),
      });
      expect(res.statusCode).toBe(401);
    }
    // The attempt limit is per code: one more wrong try kills it even before the sign-in rate limit.
    await new TestClient(t.app).post('/api/do-login', { email: mobile, password: wrongCode(code) });
    const [row] = await t.db
      .select()
      .from(otpCodes)
      .where(eq(otpCodes.mobile, mobile))
      .orderBy(desc(otpCodes.id));
    expect(row?.attempts).toBe(OTP_MAX_ATTEMPTS);
    // Let the sign-in rate limit forget these failures: the code itself must still be dead.
    await t.db.delete(loginEvents).where(eq(loginEvents.email, mobile));
    const right = await new TestClient(t.app).post('/api/do-login', { email: mobile, password: code });
    expect(right.statusCode).toBe(401);
  });

  it('refuses a password that is not 6 digits for a mobile number', async () => {
    const { mobile } = await userWithMobile();
    const res = await new TestClient(t.app).post('/api/do-login', { email: mobile, password: 'abc' });
    expect(res.statusCode).toBe(401);
  });

  it('limits code requests per mobile number (429 with Retry-After)', async () => {
    const { mobile } = await userWithMobile();
    for (let i = 0; i < 5; i++) {
      expect((await new TestClient(t.app).post('/api/user/generate-otp', { mobile })).statusCode).toBe(200);
    }
    const res = await new TestClient(t.app).post('/api/user/generate-otp', { mobile });
    expect(res.statusCode).toBe(429);
    expect(res.json().errorDescription).toMatch(
      /^Too many codes requested\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const sentCount = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.eventType, 'OTP_SENT'), eq(loginEvents.detail, `code sent to ${mobile}`)));
    expect(sentCount).toHaveLength(5);
  });
});
