import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORM_TIME_ZONE, type TPlatformInvoice, calendarDayIn } from '@radflow/core';
import { groups } from '../../db/schema.js';
import { pdfText } from '../../../test/pdf-text.js';
import { saveBillingDetails } from '../../../test/tele-billing-data.js';
import {
  type TestApp,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  signInAs,
} from '../../../test/test-app.js';
import { createTestStudies } from '../../../test/worklist-test-data.js';

/*
 * The issuer block of the platform's invoice PDF (issue 26 §3) comes from configuration —
 * PLATFORM_BILLING_NAME / PLATFORM_BILLING_ADDRESS, else the operator group's billing details
 * (its account name, GSTIN and PAN, as a group saves them in settings) — never a constant.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The operator's biller with its billing details saved, and one issued invoice's PDF text. */
async function invoicePdfText(app: TestApp, details: Record<string, unknown>) {
  const operator = await createTestGroup(app.db, { name: 'Operator Group' });
  await app.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, operator.id));
  const account = await createTestUser(app.db, { roles: ['ROLE_ADMIN_BILLER'], groupId: operator.id });
  await saveBillingDetails(app.db, account.id, details);
  const biller = await signInAs(app, account);
  const [y, m] = calendarDayIn(app.app.ctx.now(), PLATFORM_TIME_ZONE).split('-').map(Number) as [
    number,
    number,
  ];
  const period = `${m === 1 ? y - 1 : y}-${String(m === 1 ? 12 : m - 1).padStart(2, '0')}`;
  const middle = new Date(`${period}-15T06:00:00Z`);
  const group = await createTestGroup(app.db);
  const center = await createTestCenter(app.db, { groupId: group.id });
  await createTestStudies(app.db, 2, {
    groupId: group.id,
    centerId: center.id,
    row: { status: 'SIGNED_OFF', signedOffAt: middle, firstSignedOffAt: middle },
  });
  await biller.post(`/api/platform-billing/groups/${group.id}/plan`, {
    planCode: 'PER_STUDY',
    version: null,
  });
  await app.db.execute(
    sql`UPDATE group_subscriptions SET started_at = ${middle.toISOString()}::timestamptz WHERE group_id = ${group.id}`,
  );
  await biller.post('/api/platform-billing/invoices/issue', { period });
  const list = (await biller.get(`/api/platform-billing/invoices?groupId=${group.id}`)).json() as {
    invoices: TPlatformInvoice[];
  };
  const res = await biller.get(`/api/platform-billing/invoices/${list.invoices[0]!.id}/pdf`);
  expect(res.statusCode, res.body).toBe(200);
  return pdfText(res.rawPayload);
}

describe('the issuer on the platform invoice PDF', () => {
  it("is the operator group's billing details when no configuration names it", async () => {
    t = await createTestApp();
    const text = await invoicePdfText(t, {
      accName: 'Operator Health Services LLP',
      gstNumber: '29ABCDE1234F1Z5',
      pan: 'ABCDE1234F',
    });
    expect(text).toContain('Operator Health Services LLP');
    expect(text).toContain('GSTIN: 29ABCDE1234F1Z5');
    expect(text).toContain('PAN: ABCDE1234F');
    expect(text).not.toContain('Teleradiology platform');
  });

  it('is the configured name and address when set (PLATFORM_BILLING_NAME / _ADDRESS)', async () => {
    t = await createTestApp({
      platformIssuer: { name: 'Radflow Health Pvt Ltd', address: '12 MG Road, Bengaluru 560001' },
    });
    const text = await invoicePdfText(t, {
      accName: 'Operator Health Services LLP',
      gstNumber: '29ABCDE1234F1Z5',
    });
    expect(text).toContain('Radflow Health Pvt Ltd');
    expect(text).toContain('12 MG Road, Bengaluru 560001');
    expect(text).not.toContain('Operator Health Services LLP');
    expect(text).toContain('GSTIN: 29ABCDE1234F1Z5');
  });
});
