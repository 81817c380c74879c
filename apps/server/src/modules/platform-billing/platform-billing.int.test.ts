import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLATFORM_TIME_ZONE,
  type TIssueInvoicesAnswer,
  type TPlatformDashboard,
  type TPlatformInvoice,
  type TPlatformOverview,
  type TPlatformPayment,
  type TPlatformSubscription,
  type TPlatformUsage,
  type TRole,
  calendarDayIn,
  formatRupees,
  platformInvoiceAmounts,
  toPaise,
} from '@radflow/core';
import {
  groups,
  platformBillingAudit,
  platformInvoices,
  platformUsageMonths,
  platformUsagePeriods,
} from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  signInAs,
} from '../../../test/test-app.js';
import { pdfText } from '../../../test/pdf-text.js';
import { createTestStudies } from '../../../test/worklist-test-data.js';
import { startTrial } from './subscriptions.js';

/*
 * Issue 26 §3 through the HTTP API: plans, the trial, expiry → the banner flag of that group's users
 * only, a payment → the flag off, a month's invoicing idempotent and gapless, the PDF's amounts, 403
 * for every group role, the dashboards' numbers.
 */

let t: TestApp;
let biller: TestClient;
let sales: TestClient;

/** The month before the app's now, in the platform's zone, and a moment in the middle of it. */
function lastMonth(now: Date) {
  const [y, m] = calendarDayIn(now, PLATFORM_TIME_ZONE).split('-').map(Number) as [number, number];
  const year = m === 1 ? y - 1 : y;
  const month = m === 1 ? 12 : m - 1;
  const period = `${year}-${String(month).padStart(2, '0')}`;
  return { period, middle: new Date(`${period}-15T06:00:00Z`) };
}

const now = () => t.app.ctx.now();

async function operatorUser(roles: TRole[]) {
  const group = await createTestGroup(t.db, { name: 'Radflow Platform' });
  await t.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, group.id));
  return signInAs(t, await createTestUser(t.db, { roles, groupId: group.id }));
}

/**
 * A customer group with a center, a doctor signed in, and `signedOff` studies first signed off at
 * `at`, made (received) at the app's now: the month the server counts them in, not the database's.
 */
async function customerGroup(opts: { signedOff?: number; at?: Date } = {}) {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  if (opts.signedOff) {
    await createTestStudies(t.db, opts.signedOff, {
      groupId: group.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', createdAt: now(), signedOffAt: opts.at, firstSignedOffAt: opts.at },
    });
  }
  const user = await signInAs(t, await createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId: group.id }));
  return { group, center, user };
}

async function json<T>(res: { statusCode: number; body: string; json(): unknown }, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

async function subscriptionOf(groupId: number): Promise<TPlatformSubscription | null> {
  const overview = await json<TPlatformOverview>(await biller.get('/api/platform-billing/overview'));
  return overview.groups.find((g) => g.groupId === groupId)?.subscription ?? null;
}

async function bannerFlag(user: TestClient): Promise<boolean> {
  const prefs = await json<{ GROUP_SWITCHES: { showSubscriptionWarning: boolean } }>(
    await user.get('/api/user/preference'),
  );
  const group = await json<{ GROUP_SWITCHES: { showSubscriptionWarning: boolean } }>(
    await user.get('/api/user/group-preferences'),
  );
  expect(group.GROUP_SWITCHES.showSubscriptionWarning).toBe(prefs.GROUP_SWITCHES.showSubscriptionWarning);
  return prefs.GROUP_SWITCHES.showSubscriptionWarning;
}

const setPlan = async (groupId: number, planCode: string, version: number | null) =>
  json<TPlatformSubscription>(
    await biller.post(`/api/platform-billing/groups/${groupId}/plan`, { planCode, version }),
  );

beforeAll(async () => {
  t = await createTestApp();
  // "This month" and "last month" are months of the platform's zone by the app's clock: at noon, the
  // test and the server read the same month, whichever reads first.
  clockAtNoonIn(t, PLATFORM_TIME_ZONE);
  biller = await operatorUser(['ROLE_ADMIN_BILLER']);
  sales = await operatorUser(['ROLE_RADFLOW_SALES']);
});
afterAll(() => t?.close());

describe('plans and the trial', () => {
  it('lists the three default plans; startTrial gives a new group 14 days of TRIAL, once', async () => {
    const overview = await json<TPlatformOverview>(await sales.get('/api/platform-billing/overview'));
    expect(
      overview.plans.map((p) => [
        p.code,
        p.kind,
        p.monthlyFee,
        p.includedStudies,
        p.perStudyPrice,
        p.trialDays,
      ]),
    ).toEqual([
      ['TRIAL', 'SUBSCRIPTION', 0, 0, 0, 14],
      ['PER_STUDY', 'PER_STUDY', 0, 0, 15, 0],
      ['SUBSCRIPTION', 'SUBSCRIPTION', 25000, 1000, 12, 0],
    ]);
    const { group } = await customerGroup();
    const at = now();
    const first = await t.db.transaction((tx) => startTrial(tx, group.id, at));
    expect(first).toMatchObject({ planCode: 'TRIAL', status: 'TRIAL', version: 1 });
    expect(new Date(first.expiresAt!).getTime() - at.getTime()).toBe(14 * 24 * 3600 * 1000);
    const again = await t.db.transaction((tx) => startTrial(tx, group.id, new Date(at.getTime() + 1000)));
    expect(again).toEqual(first);
    const audits = await t.db
      .select()
      .from(platformBillingAudit)
      .where(eq(platformBillingAudit.groupId, group.id));
    expect(audits.map((a) => a.action)).toEqual(['TRIAL_STARTED']);
  });
});

describe('the subscription banner (spec-core §2 shell)', () => {
  it("is on for the expired group's users only, and off again once a payment is recorded", async () => {
    const expired = await customerGroup();
    const other = await customerGroup();
    const unbilled = await customerGroup();
    await t.db.transaction((tx) => startTrial(tx, expired.group.id, now()));
    await t.db.transaction((tx) => startTrial(tx, other.group.id, now()));
    expect(await bannerFlag(expired.user)).toBe(false);

    const sub = (await subscriptionOf(expired.group.id))!;
    const after = await json<TPlatformSubscription>(
      await biller.post(`/api/platform-billing/groups/${expired.group.id}/expire`, { version: sub.version }),
    );
    expect(after.status).toBe('EXPIRED');
    expect(await bannerFlag(expired.user)).toBe(true);
    expect(await bannerFlag(other.user)).toBe(false);
    expect(await bannerFlag(unbilled.user)).toBe(false);

    // A stale version is refused and changes nothing.
    const stale = await biller.post(`/api/platform-billing/groups/${expired.group.id}/plan`, {
      planCode: 'PER_STUDY',
      version: sub.version,
    });
    expect(stale.statusCode, stale.body).toBe(409);

    const payment = await json<TPlatformPayment>(
      await biller.post('/api/platform-billing/payments', {
        groupId: expired.group.id,
        amount: 1000,
        mode: 'UPI',
        reference: `UPI-${expired.group.id}`,
      }),
    );
    expect(payment.subscription).toMatchObject({ status: 'ACTIVE' });
    expect(new Date(payment.subscription!.expiresAt!).getTime()).toBeGreaterThan(now().getTime());
    expect(await bannerFlag(expired.user)).toBe(false);
  });

  it('the trial running out turns the banner on with no write (the date decides)', async () => {
    const g = await customerGroup();
    await t.db.transaction((tx) =>
      startTrial(tx, g.group.id, new Date(now().getTime() - 15 * 24 * 3600 * 1000)),
    );
    expect(await bannerFlag(g.user)).toBe(true);
    expect((await subscriptionOf(g.group.id))?.status).toBe('EXPIRED');
  });

  it("a group admin's manual switch still shows the banner (it is OR-ed with the subscription)", async () => {
    const g = await customerGroup();
    const admin = await signInAs(
      t,
      await createTestUser(t.db, { roles: ['ROLE_GROUP'], groupId: g.group.id }),
    );
    const res = await admin.post('/api/setting/update-group/GROUP_SWITCHES', {
      showSubscriptionWarning: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await bannerFlag(g.user)).toBe(true);
  });
});

describe("a month's invoicing", () => {
  it('issues one invoice per paid group, gapless, the amounts of core; a re-run and a concurrent run add nothing', async () => {
    const { period, middle } = lastMonth(now());
    const perStudy = await customerGroup({ signedOff: 7, at: middle });
    const subscribed = await customerGroup({ signedOff: 3, at: middle });
    const trial = await customerGroup({ signedOff: 5, at: middle });
    await setPlan(perStudy.group.id, 'PER_STUDY', null);
    await setPlan(subscribed.group.id, 'SUBSCRIPTION', null);
    await t.db.transaction((tx) => startTrial(tx, trial.group.id, now()));
    // The subscription began after the month ended: backdate it, as a group billed since before.
    await t.db.execute(sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz
                            WHERE group_id IN (${perStudy.group.id}, ${subscribed.group.id})`);

    const [a, b] = await Promise.all([
      biller.post('/api/platform-billing/invoices/issue', { period }),
      biller.post('/api/platform-billing/invoices/issue', { period }),
    ]);
    const answers = [await json<TIssueInvoicesAnswer>(a), await json<TIssueInvoicesAnswer>(b)];
    const issuedNow = answers.reduce((n, x) => n + x.issued, 0);
    const rerun = await json<TIssueInvoicesAnswer>(
      await biller.post('/api/platform-billing/invoices/issue', { period }),
    );
    // Only these two groups are on a paid plan in this app's database so far.
    expect(issuedNow).toBe(2);
    expect(rerun).toEqual({ period, issued: 0, alreadyIssued: 2 });

    const list = await json<{ invoices: TPlatformInvoice[] }>(
      await sales.get(`/api/platform-billing/invoices?period=${period}`),
    );
    const mine = (groupId: number) => list.invoices.filter((i) => i.groupId === groupId);
    expect(mine(trial.group.id)).toEqual([]);
    const [ps] = mine(perStudy.group.id);
    const [sb] = mine(subscribed.group.id);
    expect(mine(perStudy.group.id)).toHaveLength(1);
    expect(mine(subscribed.group.id)).toHaveLength(1);
    const expectPs = platformInvoiceAmounts(
      { kind: 'PER_STUDY', monthlyFeeMinor: 0, includedStudies: 0, perStudyMinor: 1500 },
      7,
    );
    expect([toPaise(ps!.subtotal), toPaise(ps!.gst), toPaise(ps!.total), ps!.studiesCounted]).toEqual([
      expectPs.subtotalMinor,
      expectPs.gstMinor,
      expectPs.totalMinor,
      7,
    ]);
    expect([sb!.studiesCounted, sb!.studiesCharged, sb!.total]).toEqual([3, 0, 29500]);

    // Gapless: the numbers of every row ever issued are 1..n.
    const seqs = (await t.db.select({ s: platformInvoices.sequence }).from(platformInvoices))
      .map((r) => r.s)
      .sort((x, y) => x - y);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));

    // The current month is not over: refused, nothing issued.
    const current = calendarDayIn(now(), PLATFORM_TIME_ZONE).slice(0, 7);
    const early = await biller.post('/api/platform-billing/invoices/issue', { period: current });
    expect(early.statusCode, early.body).toBe(400);
    expect(early.json()).toMatchObject({ additionalInfo: 'period' });
  });

  it('the PDF prints the ledger amounts; a payment settles the invoice once; a credit note lets the run re-issue', async () => {
    const { period, middle } = lastMonth(now());
    const g = await customerGroup({ signedOff: 4, at: middle });
    await setPlan(g.group.id, 'PER_STUDY', null);
    await t.db.execute(sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz
                            WHERE group_id = ${g.group.id}`);
    await json(await biller.post('/api/platform-billing/invoices/issue', { period }));
    const [inv] = (
      await json<{ invoices: TPlatformInvoice[] }>(
        await biller.get(`/api/platform-billing/invoices?groupId=${g.group.id}`),
      )
    ).invoices;
    expect(inv).toMatchObject({ subtotal: 60, gst: 10.8, total: 70.8, status: 'ISSUED' });

    const pdf = await biller.get(`/api/platform-billing/invoices/${inv!.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    for (const [label, rupees] of [
      ['Subtotal', inv!.subtotal],
      ['GST 18%', inv!.gst],
      ['Total', inv!.total],
    ] as const) {
      expect(text).toContain(`${label} ${formatRupees(toPaise(rupees))}`);
    }
    expect(text).toContain(inv!.number);

    // Credit note, then the month's run issues the corrected invoice with the next number.
    const note = await json<TPlatformInvoice>(
      await biller.post(`/api/platform-billing/invoices/${inv!.id}/credit-note`, { reason: 'wrong plan' }),
    );
    expect(note).toMatchObject({ kind: 'CREDIT_NOTE', total: -70.8, correctsInvoiceId: inv!.id });
    const again = await json<TIssueInvoicesAnswer>(
      await biller.post('/api/platform-billing/invoices/issue', { period }),
    );
    expect(again.issued).toBe(1);
    const reissued = (
      await json<{ invoices: TPlatformInvoice[] }>(
        await biller.get(`/api/platform-billing/invoices?groupId=${g.group.id}`),
      )
    ).invoices.find((i) => i.kind === 'INVOICE' && i.status === 'ISSUED')!;

    // The payment, twice with one Idempotency-Key: one row, one answer; the same reference again: 409.
    const body = {
      groupId: g.group.id,
      invoiceId: reissued.id,
      amount: 70.8,
      mode: 'BANK_TRANSFER',
      reference: `NEFT-${g.group.id}`,
    };
    const key = { 'idempotency-key': `pay-${g.group.id}` };
    const first = await json<TPlatformPayment>(
      await biller.post('/api/platform-billing/payments', body, key),
    );
    const repeat = await json<TPlatformPayment>(
      await biller.post('/api/platform-billing/payments', body, key),
    );
    expect(repeat).toEqual(first);
    const dup = await biller.post('/api/platform-billing/payments', body);
    expect(dup.statusCode, dup.body).toBe(409);
    const over = await biller.post('/api/platform-billing/payments', {
      ...body,
      reference: 'other',
      amount: 1,
    });
    expect(over.statusCode, over.body).toBe(409); // the invoice is PAID: not open for payment
    const paid = (
      await json<{ invoices: TPlatformInvoice[] }>(
        await biller.get(`/api/platform-billing/invoices?groupId=${g.group.id}`),
      )
    ).invoices.find((i) => i.id === reissued.id)!;
    expect(paid).toMatchObject({ status: 'PAID', paid: 70.8, due: 0 });
  });
});

describe('who sees the platform billing', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/platform-billing/overview'],
    ['GET', '/api/platform-billing/usage?from=2026-01&to=2026-02'],
    ['GET', '/api/platform-billing/invoices'],
    ['GET', '/api/platform-billing/payments'],
    ['GET', '/api/platform-billing/dashboard?from=2026-01&to=2026-02'],
    ['POST', '/api/platform-billing/invoices/issue', { period: '2026-01' }],
    ['POST', '/api/platform-billing/groups/1/plan', { planCode: 'PER_STUDY', version: null }],
    ['POST', '/api/platform-billing/payments', { groupId: 1, amount: 1, mode: 'UPI', reference: 'x' }],
  ];
  it('every group role, and an admin biller outside the operator group, gets 403 on every call', async () => {
    const g = await customerGroup();
    const roles: TRole[] = [
      'ROLE_ADMIN',
      'ROLE_GROUP',
      'ROLE_BILLER',
      'ROLE_TELE_RADIOLOGY',
      'ROLE_ADMIN_BILLER',
      'ROLE_RADFLOW_SALES',
      'ROLE_DOCTOR',
    ];
    for (const role of roles) {
      const user = await signInAs(t, await createTestUser(t.db, { roles: [role], groupId: g.group.id }));
      for (const [method, url, payload] of calls) {
        const res = await user.request({
          method: method as 'GET',
          url,
          ...(payload ? { payload: payload as object } : {}),
        });
        expect(res.statusCode, `${role} ${method} ${url}: ${res.body}`).toBe(403);
      }
    }
  });
  it('the sales role reads but does not issue, record payments or expire', async () => {
    expect((await sales.get('/api/platform-billing/invoices')).statusCode).toBe(200);
    for (const [method, url, payload] of calls.slice(5).filter(([, u]) => !u.includes('/plan'))) {
      const res = await sales.request({ method: method as 'POST', url, payload: payload as object });
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('the dashboards', () => {
  it('revenue, groups by plan, usage, sign-ups and overdue are the ledger and the tables', async () => {
    const { period, middle } = lastMonth(now());
    const g = await customerGroup({ signedOff: 2, at: middle });
    await setPlan(g.group.id, 'PER_STUDY', null);
    await t.db.execute(sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz
                            WHERE group_id = ${g.group.id}`);
    await json(await biller.post('/api/platform-billing/invoices/issue', { period }));
    const current = calendarDayIn(now(), PLATFORM_TIME_ZONE).slice(0, 7);

    const read = async (who = biller) =>
      json<TPlatformDashboard>(await who.get(`/api/platform-billing/dashboard?from=${period}&to=${current}`));
    const dash = await read();
    const rows = await t.db.execute(
      sql`SELECT coalesce(sum(total_minor), 0)::bigint AS total FROM platform_invoices WHERE period = ${period}`,
    );
    const ledgerTotal = Number((rows as unknown as { rows: Array<{ total: string }> }).rows[0]!.total);
    expect(toPaise(dash.revenueByMonth.find((r) => r.period === period)!.invoiced)).toBe(ledgerTotal);
    const allGroups = await t.db.select({ createdAt: groups.createdAt }).from(groups);
    expect(dash.groupsByPlan.reduce((n, p) => n + p.groups, 0)).toBe(allGroups.length);
    // Every group was made during this run: this month's, unless the run crossed the month's end
    // (the rows are dated by the database's clock, not the app's).
    const madeThisMonth = allGroups.filter(
      (g) => calendarDayIn(g.createdAt, PLATFORM_TIME_ZONE).slice(0, 7) === current,
    );
    expect(dash.signUpsByMonth.find((s) => s.period === current)!.groups).toBe(madeThisMonth.length);
    expect(dash.usageByMonth.find((u) => u.period === period)!.signedOff).toBeGreaterThanOrEqual(2);
    expect(dash.overdue.count).toBe(0);
    // Usage per group: signed off last month, received (the rows were made) this month.
    const usage = await json<TPlatformUsage>(
      await sales.get(`/api/platform-billing/usage?from=${period}&to=${current}`),
    );
    expect(usage.rows.filter((r) => r.groupId === g.group.id)).toEqual([
      { groupId: g.group.id, groupName: g.group.name, period, received: 0, signedOff: 2 },
      { groupId: g.group.id, groupName: g.group.name, period: current, received: 2, signedOff: 0 },
    ]);

    // 16 days on (a new session: the old one has lapsed), the unpaid invoices are overdue.
    t.clock.advance(16 * 24 * 3600);
    const later = await read(await operatorUser(['ROLE_ADMIN_BILLER']));
    expect(later.overdue.count).toBeGreaterThan(0);
    expect(later.overdue.invoices.map((i) => i.groupId)).toContain(g.group.id);
    const open = await t.db.execute(
      sql`SELECT coalesce(sum(total_minor - paid_minor), 0)::bigint AS due FROM platform_invoices WHERE status = 'ISSUED'`,
    );
    expect(toPaise(later.overdue.amount)).toBe(
      Number((open as unknown as { rows: Array<{ due: string }> }).rows[0]!.due),
    );
    t.clock.advance(-16 * 24 * 3600);
  });
});

describe('usage of closed months (usage-months.ts)', () => {
  const HOUR = 3600;
  const periodOf = (at: Date) => calendarDayIn(at, PLATFORM_TIME_ZONE).slice(0, 7);
  /** The month `n` months after `period` (n < 0: before), its first instant and a moment in its middle. */
  const monthFrom = (period: string, n: number) => {
    const [y, m] = period.split('-').map(Number) as [number, number];
    const index = y * 12 + (m - 1) + n;
    const month = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    return {
      period: month,
      start: new Date(`${month}-01T00:00:00+05:30`),
      middle: new Date(`${month}-15T06:00:00Z`),
    };
  };
  const usageOf = async (groupId: number, from: string, to: string, who = sales) =>
    (
      await json<TPlatformUsage>(await who.get(`/api/platform-billing/usage?from=${from}&to=${to}`))
    ).rows.filter((r) => r.groupId === groupId);
  const isKept = async (period: string) =>
    (await t.db.select().from(platformUsagePeriods).where(eq(platformUsagePeriods.period, period))).length ===
    1;
  /** `count` studies of the group made and first signed off at `at`. */
  const studiesAt = (g: { group: { id: number }; center: { id: number } }, count: number, at: Date) =>
    createTestStudies(t.db, count, {
      groupId: g.group.id,
      centerId: g.center.id,
      row: { status: 'SIGNED_OFF', createdAt: at, signedOffAt: at, firstSignedOffAt: at },
    });

  it('counts a closed month once, keeps it, and counts the open month live', async () => {
    const current = periodOf(now());
    // A month no other case reads.
    const past = monthFrom(current, -6);
    const g = await customerGroup();
    await studiesAt(g, 3, past.middle);
    // Made (received) at the app's now, the clock the open month is the server's by.
    const madeNow = () =>
      createTestStudies(t.db, 1, { groupId: g.group.id, centerId: g.center.id, row: { createdAt: now() } });
    await madeNow();
    const name = g.group.name;
    const expected = [
      { groupId: g.group.id, groupName: name, period: past.period, received: 3, signedOff: 3 },
      { groupId: g.group.id, groupName: name, period: current, received: 1, signedOff: 0 },
    ];
    // Two first reads at once: both answer the count, and the month is kept once.
    const [a, b] = await Promise.all([
      usageOf(g.group.id, past.period, current),
      usageOf(g.group.id, past.period, current),
    ]);
    expect(a).toEqual(expected);
    expect(b).toEqual(expected);
    expect(await isKept(past.period)).toBe(true);
    expect(
      await t.db
        .select({
          period: platformUsageMonths.period,
          received: platformUsageMonths.received,
          signedOff: platformUsageMonths.signedOff,
        })
        .from(platformUsageMonths)
        .where(eq(platformUsageMonths.groupId, g.group.id)),
    ).toEqual([{ period: past.period, received: 3, signedOff: 3 }]);

    // A row made now counts at once in the open month. One written into the closed month afterwards
    // (nothing in the product backdates a row) is not counted again: that month was closed.
    await studiesAt(g, 1, past.middle);
    await madeNow();
    expect(await usageOf(g.group.id, past.period, current)).toEqual([
      expected[0],
      { ...expected[1], received: 2 },
    ]);

    // The dashboard's usage trend is the same months summed over the groups.
    const all = (
      await json<TPlatformUsage>(
        await sales.get(`/api/platform-billing/usage?from=${past.period}&to=${current}`),
      )
    ).rows;
    const dash = await json<TPlatformDashboard>(
      await biller.get(`/api/platform-billing/dashboard?from=${past.period}&to=${current}`),
    );
    for (const month of [past.period, current]) {
      const rows = all.filter((r) => r.period === month);
      expect(dash.usageByMonth.find((u) => u.period === month)).toEqual({
        period: month,
        received: rows.reduce((n, r) => n + r.received, 0),
        signedOff: rows.reduce((n, r) => n + r.signedOff, 0),
      });
    }
  });

  it('keeps a month live for its first hour after it ended, then counts it with every row', async () => {
    // A month ahead that no other case reads, and the clock moved to 30 minutes after it ends.
    const month = monthFrom(periodOf(now()), 2);
    const after = monthFrom(month.period, 1);
    const g = await customerGroup();
    await studiesAt(g, 2, month.middle);
    const toHalfHourAfter = Math.ceil((after.start.getTime() - now().getTime()) / 1000) + HOUR / 2;
    t.clock.advance(toHalfHourAfter);
    try {
      expect(periodOf(now())).toBe(after.period);
      // New sessions each time: the old ones lapse on the way.
      const live = await usageOf(
        g.group.id,
        month.period,
        after.period,
        await operatorUser(['ROLE_RADFLOW_SALES']),
      );
      expect(live).toEqual([
        { groupId: g.group.id, groupName: g.group.name, period: month.period, received: 2, signedOff: 2 },
      ]);
      expect(await isKept(month.period)).toBe(false);
      await studiesAt(g, 1, month.middle);
      t.clock.advance(HOUR);
      const closed = await usageOf(
        g.group.id,
        month.period,
        after.period,
        await operatorUser(['ROLE_RADFLOW_SALES']),
      );
      expect(closed).toEqual([{ ...live[0], received: 3, signedOff: 3 }]);
      expect(await isKept(month.period)).toBe(true);
    } finally {
      t.clock.advance(-toHalfHourAfter - HOUR);
    }
  });
});

describe('bad input', () => {
  it('names the problem with a 4xx and stores nothing', async () => {
    const g = await customerGroup();
    const cases: Array<[string, string, unknown, number, string | null]> = [
      ['GET', '/api/platform-billing/dashboard?from=2020-01&to=2026-01', undefined, 400, 'to'],
      ['GET', '/api/platform-billing/usage?from=2026-05&to=2026-01', undefined, 400, null],
      ['POST', '/api/platform-billing/invoices/issue', { period: '2026-13' }, 400, null],
      [
        'POST',
        '/api/platform-billing/groups/999999/plan',
        { planCode: 'PER_STUDY', version: null },
        404,
        'groupId',
      ],
      [
        'POST',
        `/api/platform-billing/groups/${g.group.id}/plan`,
        { planCode: 'GOLD', version: null },
        404,
        'planCode',
      ],
      ['POST', `/api/platform-billing/groups/${g.group.id}/expire`, { version: 1 }, 400, 'groupId'],
      [
        'POST',
        '/api/platform-billing/payments',
        { groupId: g.group.id, amount: 1.005, mode: 'UPI', reference: 'r' },
        400,
        null,
      ],
      [
        'POST',
        '/api/platform-billing/payments',
        { groupId: g.group.id, invoiceId: 999999, amount: 1, mode: 'UPI', reference: 'r' },
        404,
        'invoiceId',
      ],
      ['GET', '/api/platform-billing/invoices/999999/pdf', undefined, 404, 'invoiceId'],
    ];
    for (const [method, url, payload, status, field] of cases) {
      const res = await biller.request({
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
      if (field) expect(res.json()).toMatchObject({ additionalInfo: field });
    }
    expect(await subscriptionOf(g.group.id)).toBeNull();
  });
});
