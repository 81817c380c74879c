import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
  SIGNUP_OTP_MAX_PER_ADDRESS,
  type TSignupRequest,
} from '@radflow/core';
import {
  groupSubscriptions,
  groups,
  loginEvents,
  messageOutbox,
  otpCodes,
  peopleAudit,
  platformBillingAudit,
  platformPlans,
  users,
} from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestUser,
  readOtpFromOutbox,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestStudy, list } from '../../../test/worklist-test-data.js';
import { OTP_MAX_REQUESTS_PER_MOBILE } from '../auth/otp.js';

/*
 * Issue 26 §4 /signup through the HTTP API: a sign-up code for any number, then the group and its
 * first admin in one transaction, signed in (modules/signup/DECISIONS.md).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
let seq = 0;
const uniqueEmail = () => `owner-${Date.now().toString(36)}-${seq++}@newgroup.test`;

/** A browser that asked for a sign-up code for a fresh number, and the code from the outbox. */
async function withCode(mobile = uniqueMobile()) {
  const browser = new TestClient(t.app);
  const res = await browser.post('/api/signup/otp', { mobile });
  expect(res.statusCode, res.body).toBe(200);
  return { browser, mobile, code: await readOtpFromOutbox(t.db, mobile) };
}

function form(mobile: string, otp: string, over: Partial<TSignupRequest> = {}): TSignupRequest {
  return {
    mobile,
    otp,
    groupName: 'Sunrise Teleradiology',
    adminName: 'Asha Verma',
    email: uniqueEmail(),
    password: 'violet kestrel 42',
    ...over,
  };
}

const groupsNamed = (name: string) => t.db.select().from(groups).where(eq(groups.name, name));
const usersWithMobile = (mobile: string) => t.db.select().from(users).where(eq(users.mobileNumber, mobile));

describe('POST /api/signup/otp', () => {
  it('sends a sign-up code by SMS to a number without an account (the outbox), stored as a hash', async () => {
    const mobile = uniqueMobile();
    const res = await new TestClient(t.app).post('/api/signup/otp', { mobile: ` ${mobile} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, expiresInSeconds: OTP_TTL_SECONDS });
    const [message] = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, mobile));
    expect(message).toMatchObject({ channel: 'SMS' });
    expect(message?.body).toMatch(/^Your Radflow sign-up code is \d{6}\. It expires in 5 minutes\.$/);
    const code = await readOtpFromOutbox(t.db, mobile);
    const [stored] = await t.db.select().from(otpCodes).where(eq(otpCodes.mobile, mobile));
    expect(stored).toMatchObject({ purpose: 'SIGN_UP', attempts: 0, consumedAt: null });
    expect(stored?.codeHash).not.toContain(code);
  });

  it("refuses a value that is not a mobile number with the spec's message", async () => {
    for (const mobile of ['owner@clinic.in', '12345', '5876543210']) {
      const res = await new TestClient(t.app).post('/api/signup/otp', { mobile });
      expect(res.statusCode, mobile).toBe(400);
      expect(res.json()).toMatchObject({
        errorDescription: 'Only mobile numbers are supported for otp',
        additionalInfo: 'mobile',
      });
    }
  });

  it('answers a registered number exactly as a new one (no account enumeration)', async () => {
    const mobile = uniqueMobile();
    await createTestUser(t.db, { mobileNumber: mobile, roles: ['ROLE_DOCTOR'] });
    const registered = await new TestClient(t.app).post('/api/signup/otp', { mobile });
    const fresh = await new TestClient(t.app).post('/api/signup/otp', { mobile: uniqueMobile() });
    expect(registered.statusCode).toBe(fresh.statusCode);
    expect(registered.json()).toEqual(fresh.json());
  });

  it(`limits one client address to ${SIGNUP_OTP_MAX_PER_ADDRESS} codes in the window (429, Retry-After)`, async () => {
    const browser = new TestClient(t.app);
    for (let i = 0; i < SIGNUP_OTP_MAX_PER_ADDRESS; i++) {
      expect((await browser.post('/api/signup/otp', { mobile: uniqueMobile() })).statusCode).toBe(200);
    }
    const mobile = uniqueMobile();
    const res = await browser.post('/api/signup/otp', { mobile });
    expect(res.statusCode).toBe(429);
    expect(res.json().errorDescription).toMatch(
      /^Too many codes requested\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing was sent for the refused request.
    expect(await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, mobile))).toEqual([]);
    // Another address is not slowed down.
    expect((await new TestClient(t.app).post('/api/signup/otp', { mobile })).statusCode).toBe(200);
  });

  it('answers exactly the per-address limit when many code requests arrive at once', async () => {
    const address = `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        new TestClient(t.app, { address }).post('/api/signup/otp', { mobile: uniqueMobile() }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(SIGNUP_OTP_MAX_PER_ADDRESS);
    expect(codes.filter((c) => c === 429)).toHaveLength(12 - SIGNUP_OTP_MAX_PER_ADDRESS);
  });

  it(`limits one number to ${OTP_MAX_REQUESTS_PER_MOBILE} codes of any kind in the window, from any address`, async () => {
    const mobile = uniqueMobile();
    await createTestUser(t.db, { mobileNumber: mobile, roles: ['ROLE_CUSTOMER'] });
    // Sign-in codes count too: the SMS budget and the phone's owner do not care what a code is for.
    expect((await new TestClient(t.app).post('/api/user/generate-otp', { mobile })).statusCode).toBe(200);
    for (let i = 1; i < OTP_MAX_REQUESTS_PER_MOBILE; i++) {
      expect((await new TestClient(t.app).post('/api/signup/otp', { mobile })).statusCode).toBe(200);
    }
    const res = await new TestClient(t.app).post('/api/signup/otp', { mobile });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const sent = await t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, mobile));
    expect(sent).toHaveLength(OTP_MAX_REQUESTS_PER_MOBILE);
  });

  it('keeps sign-in and sign-up codes apart: neither works for the other', async () => {
    const mobile = uniqueMobile();
    await createTestUser(t.db, { mobileNumber: mobile, roles: ['ROLE_CUSTOMER'] });
    const { code: signupCode } = await withCode(mobile);
    const login = await new TestClient(t.app).post('/api/do-login', { email: mobile, password: signupCode });
    expect(login.statusCode).toBe(401);

    const fresh = uniqueMobile();
    // A sign-in code cannot exist for a number without an account; make one as generate-otp would.
    const other = await createTestUser(t.db, { mobileNumber: fresh, roles: ['ROLE_CUSTOMER'] });
    await new TestClient(t.app).post('/api/user/generate-otp', { mobile: fresh });
    const signInCode = await readOtpFromOutbox(t.db, fresh);
    await t.db.delete(users).where(eq(users.id, other.id));
    const res = await new TestClient(t.app).post('/api/signup', form(fresh, signInCode));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ additionalInfo: 'otp' });
    expect(await usersWithMobile(fresh)).toEqual([]);
  });
});

describe('POST /api/signup', () => {
  it('creates exactly one group and its owner, signs them in, and the session works', async () => {
    const { browser, mobile, code } = await withCode();
    const groupName = `Sunrise ${Date.now()}`;
    const body = form(mobile, code, { groupName, email: ` ${uniqueEmail().toUpperCase()} ` });
    const res = await browser.post('/api/signup', body);
    expect(res.statusCode, res.body).toBe(200);
    const email = body.email.trim().toLowerCase();
    const [group] = await groupsNamed(groupName);
    expect(res.json()).toEqual({ groupId: group?.id, email, redirectTo: '/' });
    expect(await groupsNamed(groupName)).toHaveLength(1);

    const members = await t.db.select().from(users).where(eq(users.groupId, group!.id));
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({
      email,
      mobileNumber: mobile,
      identifier: 'Asha Verma',
      roles: ['ROLE_GROUP', 'ROLE_ADMIN'],
      centerId: null,
      active: true,
    });
    expect(members[0]?.passwordHash).not.toContain(body.password);

    const me = await browser.get('/api/user/');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email, identifier: 'Asha Verma', roles: ['ROLE_GROUP', 'ROLE_ADMIN'] });

    const audit = await t.db.select().from(peopleAudit).where(eq(peopleAudit.groupId, group!.id));
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'GROUP_SIGNED_UP',
        actorUserId: members[0]?.id,
        targetType: 'USER',
        targetId: members[0]?.id,
      }),
    ]);
    // The trial plan (platform billing), started in the same transaction: 14 days from now.
    const subscriptions = await t.db
      .select({
        status: groupSubscriptions.status,
        plan: platformPlans.code,
        startedAt: groupSubscriptions.startedAt,
        expiresAt: groupSubscriptions.expiresAt,
      })
      .from(groupSubscriptions)
      .innerJoin(platformPlans, eq(platformPlans.id, groupSubscriptions.planId))
      .where(eq(groupSubscriptions.groupId, group!.id));
    expect(subscriptions).toEqual([expect.objectContaining({ status: 'TRIAL', plan: 'TRIAL' })]);
    const [trial] = subscriptions;
    expect(trial!.expiresAt!.getTime() - trial!.startedAt.getTime()).toBe(14 * 86_400_000);
    expect(
      await t.db.select().from(platformBillingAudit).where(eq(platformBillingAudit.groupId, group!.id)),
    ).toEqual([expect.objectContaining({ action: 'TRIAL_STARTED', actorEmail: email })]);

    const events = await t.db.select().from(loginEvents).where(eq(loginEvents.userId, members[0]!.id));
    expect(events.map((e) => e.eventType).sort()).toEqual(['LOGIN_SUCCESS', 'SIGNED_UP']);
    // The code was used up.
    const [stored] = await t.db.select().from(otpCodes).where(eq(otpCodes.mobile, mobile));
    expect(stored?.consumedAt).not.toBeNull();

    // The owner signs in again later with the password, and with a sign-in code on the mobile.
    expect((await new TestClient(t.app).login(email, body.password)).statusCode).toBe(200);
    const phone = new TestClient(t.app);
    expect((await phone.post('/api/user/generate-otp', { mobile })).statusCode).toBe(200);
    const signInCode = await readOtpFromOutbox(t.db, mobile);
    expect((await phone.post('/api/do-login', { email: mobile, password: signInCode })).statusCode).toBe(200);
  });

  it('lands in an empty workspace: nothing of other groups, and the getting-started steps all open', async () => {
    const otherOwner = await createTestUser(t.db, { roles: ['ROLE_GROUP', 'ROLE_ADMIN'] });
    const otherCenter = await createTestCenter(t.db, { groupId: otherOwner.groupId });
    await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: otherOwner.groupId });
    await createTestStudy(t.db, { groupId: otherOwner.groupId, centerId: otherCenter.id });

    const { browser, mobile, code } = await withCode();
    const body = form(mobile, code);
    expect((await browser.post('/api/signup', body)).statusCode).toBe(200);

    const steps = await browser.get('/api/group/getting-started');
    expect(steps.statusCode).toBe(200);
    expect(steps.json()).toEqual({
      hasCenter: false,
      hasRadiologist: false,
      hasStudy: false,
      hasBillingDetails: false,
    });
    expect((await browser.get('/api/admin/centers')).json()).toEqual([]);
    const people = await browser.get('/api/admin/users');
    expect(people.json().map((u: { email: string }) => u.email)).toEqual([body.email]);
    expect((await list(browser, '/api/dicom-web/studies/')).content).toEqual([]);

    // The steps follow the group's own records.
    const center = await browser.post('/api/admin/centers', { name: 'Main', email: 'main@newgroup.test' });
    expect(center.statusCode, center.body).toBe(200);
    expect((await browser.get('/api/group/getting-started')).json()).toMatchObject({
      hasCenter: true,
      hasRadiologist: false,
    });
  });

  it('the getting-started checklist is for the group admins only (403 for others)', async () => {
    const doctor = new TestClient(t.app);
    const user = await createTestUser(t.db, { roles: ['ROLE_DOCTOR'] });
    await doctor.login(user.email, user.password);
    expect((await doctor.get('/api/group/getting-started')).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/api/group/getting-started')).statusCode).toBe(401);
  });

  it('a wrong code is refused (400) and creates nothing; the right one still works', async () => {
    const { browser, mobile, code } = await withCode();
    const groupName = `Wrong code ${Date.now()}`;
    const res = await browser.post('/api/signup', form(mobile, wrongCode(code), { groupName }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: 'The code is not correct', additionalInfo: 'otp' });
    expect(await groupsNamed(groupName)).toEqual([]);
    expect(await usersWithMobile(mobile)).toEqual([]);
    expect(browser.cookie).toBeNull();
    expect((await browser.post('/api/signup', form(mobile, code, { groupName }))).statusCode).toBe(200);
  });

  it('an expired code is refused', async () => {
    const { browser, mobile, code } = await withCode();
    t.clock.advance(OTP_TTL_SECONDS + 1);
    try {
      const res = await browser.post('/api/signup', form(mobile, code));
      expect(res.statusCode).toBe(400);
      expect(res.json().errorDescription).toBe(
        'The code has expired or was already used. Request a new code.',
      );
    } finally {
      t.clock.advance(-(OTP_TTL_SECONDS + 1));
    }
    expect(await usersWithMobile(mobile)).toEqual([]);
  });

  it(`kills the code after ${OTP_MAX_ATTEMPTS} wrong tries`, async () => {
    const { mobile, code } = await withCode();
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      // Each from its own address, so that only the code's own limit is at work.
      const res = await new TestClient(t.app).post('/api/signup', form(mobile, wrongCode(code)));
      expect(res.statusCode).toBe(400);
    }
    const [row] = await t.db
      .select()
      .from(otpCodes)
      .where(eq(otpCodes.mobile, mobile))
      .orderBy(desc(otpCodes.id));
    expect(row?.attempts).toBe(OTP_MAX_ATTEMPTS);
    // Let the sign-in throttle forget those failures: the code itself must be dead.
    await t.db.delete(loginEvents).where(eq(loginEvents.email, mobile));
    const right = await new TestClient(t.app).post('/api/signup', form(mobile, code));
    expect(right.statusCode).toBe(400);
    expect(right.json().errorDescription).toBe(
      'The code has expired or was already used. Request a new code.',
    );
    expect(await usersWithMobile(mobile)).toEqual([]);
  });

  it('wrong codes slow the number down as sign-in failures do (429 with Retry-After)', async () => {
    const { mobile, code } = await withCode();
    // Five failures on the number, from several addresses ...
    for (let i = 0; i < 5; i++)
      await new TestClient(t.app).post('/api/signup', form(mobile, wrongCode(code)));
    // ... and the next attempt waits before any code is looked at.
    const res = await new TestClient(t.app).post('/api/signup', form(mobile, code));
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const failures = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.email, mobile), eq(loginEvents.eventType, 'OTP_FAILED')));
    expect(failures).toHaveLength(5);
  });

  it('a registered mobile number is told to sign in (409), once its code proves the phone', async () => {
    const mobile = uniqueMobile();
    const existing = await createTestUser(t.db, { mobileNumber: mobile, roles: ['ROLE_DOCTOR'] });
    const { browser, code } = await withCode(mobile);
    const groupName = `Registered ${Date.now()}`;
    const res = await browser.post('/api/signup', form(mobile, code, { groupName }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      errorDescription: 'This mobile number is already registered. Please sign in instead.',
      additionalInfo: 'mobile',
    });
    expect(await groupsNamed(groupName)).toEqual([]);
    expect(await usersWithMobile(mobile)).toEqual([expect.objectContaining({ id: existing.id })]);
    expect(
      await t.db.select().from(groupSubscriptions).where(eq(groupSubscriptions.groupId, existing.groupId)),
    ).toEqual([]);
    expect(browser.cookie).toBeNull();
  });

  it('a second sign-up with the same mobile or e-mail gets 409 and changes nothing', async () => {
    const first = await withCode();
    const body = form(first.mobile, first.code);
    expect((await first.browser.post('/api/signup', body)).statusCode).toBe(200);

    const again = await withCode(first.mobile);
    const sameMobile = await again.browser.post('/api/signup', form(first.mobile, again.code));
    expect(sameMobile.statusCode).toBe(409);
    expect(sameMobile.json().errorDescription).toBe(
      'This mobile number is already registered. Please sign in instead.',
    );

    const other = await withCode();
    const groupName = `Same e-mail ${Date.now()}`;
    const sameEmail = await other.browser.post(
      '/api/signup',
      form(other.mobile, other.code, { email: body.email.toUpperCase(), groupName }),
    );
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({
      errorDescription: 'An account with this e-mail already exists. Please sign in, or use another e-mail.',
      additionalInfo: 'email',
    });
    expect(await groupsNamed(groupName)).toEqual([]);
    expect(await usersWithMobile(other.mobile)).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(1);
  });

  it('refuses bad input with a clear 400 naming the field, and keeps the code for the corrected form', async () => {
    const { browser, mobile, code } = await withCode();
    const cases: Array<[Partial<TSignupRequest>, string, string | RegExp]> = [
      [{ groupName: '  ' }, 'groupName', 'groupName is required'],
      [{ adminName: '' }, 'adminName', 'adminName is required'],
      [{ email: 'not-an-email' }, 'email', 'email must be a valid e-mail address'],
      [{ password: 'short' }, 'password', 'password must be at least 8 characters'],
      [{ password: 'password123' }, 'password', /too common/],
      [{ password: 'asha verma 2024', adminName: 'Asha Verma' }, 'password', /must not contain your e-mail/],
      [{ otp: '12ab56' }, 'otp', 'The one-time code is 6 digits'],
      [{ mobile: 'owner@clinic.in' }, 'mobile', 'Only mobile numbers are supported for otp'],
    ];
    for (const [over, field, message] of cases) {
      const res = await browser.post('/api/signup', form(mobile, code, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().errorDescription, field).toEqual(
        typeof message === 'string' ? message : expect.stringMatching(message),
      );
    }
    const stored = await t.db.select().from(otpCodes).where(eq(otpCodes.mobile, mobile));
    expect(stored.map((r) => [r.attempts, r.consumedAt])).toEqual([[0, null]]);
    expect((await browser.post('/api/signup', form(mobile, code))).statusCode).toBe(200);
    expect(
      await t.db
        .select()
        .from(loginEvents)
        .where(and(eq(loginEvents.email, mobile), inArray(loginEvents.eventType, ['OTP_FAILED']))),
    ).toEqual([]);
  });
});
