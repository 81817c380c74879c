import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLATFORM_TIME_ZONE,
  type TPlatformInvoice,
  type TPlatformOverview,
  type TPlatformPlan,
  type TRole,
  calendarDayIn,
} from '@radflow/core';
import { groups, platformBillingAudit } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  signInAs,
} from '../../../test/test-app.js';
import { createTestStudies } from '../../../test/worklist-test-data.js';

/*
 * Plans editable by the platform's admin biller (issue 26 §3): create and edit a plan's price and
 * limits; the change applies to invoices issued after it and never rewrites an issued invoice; the
 * sales role reads the plans but may not change them; nobody else sees them.
 */

let t: TestApp;
let biller: TestClient;
let sales: TestClient;

async function operatorUser(roles: TRole[]) {
  const group = await createTestGroup(t.db, { name: 'Radflow Platform' });
  await t.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, group.id));
  return signInAs(t, await createTestUser(t.db, { roles, groupId: group.id }));
}

beforeAll(async () => {
  t = await createTestApp();
  biller = await operatorUser(['ROLE_ADMIN_BILLER']);
  sales = await operatorUser(['ROLE_RADFLOW_SALES']);
});
afterAll(() => t?.close());

async function json<T>(res: { statusCode: number; body: string; json(): unknown }, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

const plans = async (who: TestClient) =>
  (await json<TPlatformOverview>(await who.get('/api/platform-billing/overview'))).plans;

const newPlan = {
  code: 'CLINIC_PLUS',
  name: 'Clinic plus',
  kind: 'PER_STUDY',
  monthlyFee: 0,
  includedStudies: 0,
  perStudyPrice: 15,
  trialDays: 0,
};

function lastMonth(now: Date) {
  const [y, m] = calendarDayIn(now, PLATFORM_TIME_ZONE).split('-').map(Number) as [number, number];
  const period = `${m === 1 ? y - 1 : y}-${String(m === 1 ? 12 : m - 1).padStart(2, '0')}`;
  return { period, middle: new Date(`${period}-15T06:00:00Z`) };
}

describe('plans', () => {
  it('the admin biller creates a plan; sales reads it; a duplicate code or bad terms are refused', async () => {
    const created = await json<TPlatformPlan>(await biller.post('/api/platform-billing/plans', newPlan));
    expect(created).toMatchObject({ ...newPlan, currency: 'INR', active: true });
    expect((await plans(sales)).find((p) => p.code === 'CLINIC_PLUS')).toEqual(created);

    expect((await biller.post('/api/platform-billing/plans', newPlan)).statusCode).toBe(409);
    for (const bad of [
      { ...newPlan, code: 'X2', perStudyPrice: -1 },
      { ...newPlan, code: 'X3', perStudyPrice: 1.005 },
      { ...newPlan, code: 'lower' },
      { ...newPlan, code: 'X4', includedStudies: 2.5 },
      { ...newPlan, code: 'X5', name: ' ' },
    ]) {
      const res = await biller.post('/api/platform-billing/plans', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const audit = await t.db
      .select()
      .from(platformBillingAudit)
      .where(eq(platformBillingAudit.entity, 'PLAN'));
    expect(audit.map((a) => [a.action, a.entityId])).toEqual([['CREATED', created.id]]);
  });

  it('sales may not create or edit; group roles may not even read', async () => {
    const [plan] = await plans(sales);
    expect(
      (await sales.post('/api/platform-billing/plans', { ...newPlan, code: 'SALES_TRY' })).statusCode,
    ).toBe(403);
    expect((await sales.post(`/api/platform-billing/plans/${plan!.id}`, { ...newPlan })).statusCode).toBe(
      403,
    );
    const groupAdmin = await signInAs(t, await createTestUser(t.db, { roles: ['ROLE_ADMIN'] }));
    expect((await groupAdmin.get('/api/platform-billing/overview')).statusCode).toBe(403);
    expect((await groupAdmin.post('/api/platform-billing/plans', newPlan)).statusCode).toBe(403);
  });

  it('an edit prices the invoices issued after it; an issued invoice keeps its terms', async () => {
    const plan = (await plans(biller)).find((p) => p.code === 'CLINIC_PLUS')!;
    const { period, middle } = lastMonth(t.app.ctx.now());
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    await createTestStudies(t.db, 4, {
      groupId: group.id,
      centerId: center.id,
      row: { status: 'SIGNED_OFF', signedOffAt: middle, firstSignedOffAt: middle },
    });
    await json(
      await biller.post(`/api/platform-billing/groups/${group.id}/plan`, {
        planCode: plan.code,
        version: null,
      }),
    );
    await t.db.execute(
      sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz WHERE group_id = ${group.id}`,
    );
    await json(await biller.post('/api/platform-billing/invoices/issue', { period }));
    const invoicesOf = async () =>
      (
        await json<{ invoices: TPlatformInvoice[] }>(
          await biller.get(`/api/platform-billing/invoices?groupId=${group.id}`),
        )
      ).invoices;
    const [first] = await invoicesOf();
    expect(first).toMatchObject({ usage: 60, total: 70.8 });

    const edited = await json<TPlatformPlan>(
      await biller.post(`/api/platform-billing/plans/${plan.id}`, {
        name: 'Clinic plus (2027)',
        monthlyFee: 0,
        includedStudies: 0,
        perStudyPrice: 20,
        trialDays: 0,
      }),
    );
    expect(edited).toMatchObject({ code: 'CLINIC_PLUS', kind: 'PER_STUDY', perStudyPrice: 20 });
    expect((await invoicesOf()).find((i) => i.id === first!.id)).toEqual(first);

    // Corrected by a credit note, the month's next run issues the invoice on the new terms.
    await json(
      await biller.post(`/api/platform-billing/invoices/${first!.id}/credit-note`, { reason: 'New price' }),
    );
    await json(await biller.post('/api/platform-billing/invoices/issue', { period }));
    const reissued = (await invoicesOf()).find((i) => i.kind === 'INVOICE' && i.status === 'ISSUED');
    expect(reissued).toMatchObject({ planName: 'Clinic plus (2027)', usage: 80, total: 94.4 });
    expect((await invoicesOf()).find((i) => i.id === first!.id)).toMatchObject({ usage: 60, total: 70.8 });
  });

  it('a trial stays a trial and a paid plan stays paid; an unknown plan is 404', async () => {
    const trial = (await plans(biller)).find((p) => p.code === 'TRIAL')!;
    const res = await biller.post(`/api/platform-billing/plans/${trial.id}`, {
      name: trial.name,
      monthlyFee: 0,
      includedStudies: 0,
      perStudyPrice: 0,
      trialDays: 0,
    });
    expect(res.statusCode, res.body).toBe(400);
    const longer = await json<TPlatformPlan>(
      await biller.post(`/api/platform-billing/plans/${trial.id}`, {
        name: trial.name,
        monthlyFee: 0,
        includedStudies: 0,
        perStudyPrice: 0,
        trialDays: 30,
      }),
    );
    expect(longer.trialDays).toBe(30);
    const paid = (await plans(biller)).find((p) => p.code === 'CLINIC_PLUS')!;
    expect(
      (await biller.post(`/api/platform-billing/plans/${paid.id}`, { ...newPlan, trialDays: 7 })).statusCode,
    ).toBe(400);
    expect((await biller.post('/api/platform-billing/plans/999999', { ...newPlan })).statusCode).toBe(404);
  });
});
