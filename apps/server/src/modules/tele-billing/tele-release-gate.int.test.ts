import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY_TIME_ZONE, type TBillingDocumentDetail } from '@radflow/core';
import { reportStatuses, studyPayments, userSignatures } from '../../db/schema.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { addPrice, signedOffStudies } from '../../../test/tele-billing-data.js';
import {
  type TestApp,
  clockAtNoonIn,
  createTestApp,
  createTestWorld,
  signInAt,
} from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';

/*
 * Dunning and payment before release (issue 26 §1): with the group switch on, a report signed off
 * for a center whose tele invoice is overdue waits for a study payment of its read price (the
 * existing payment flow); without the switch, or for a center that owes nothing, it is released.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // An invoice due the day it is issued is overdue from the next midnight of the group's zone: the
  // sign-off right after the issue must not fall past it.
  clockAtNoonIn(t, DEFAULT_DISPLAY_TIME_ZONE);
});
afterAll(() => t?.close());
const { lock, signOff } = reportingCalls(() => t);

async function dunnedWorld(requirePaymentBeforeReportRelease: boolean) {
  const place = await createTestWorld(t.db, { requirePaymentBeforeReportRelease });
  const tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
  await addPrice(tele.browser, { centerId: null, modality: 'CT', amount: 500, effectiveFrom: '2020-01-01' });
  await addPrice(tele.browser, {
    centerId: null,
    modality: 'CT',
    charge: 'URGENT',
    amount: 150,
    effectiveFrom: '2020-01-01',
  });
  await signedOffStudies(t.db, { groupId: place.group.id, centerId: place.center.id }, [
    { at: '2026-01-10T06:00:00Z' },
  ]);
  const res = await tele.browser.post('/api/tele-invoices', {
    centerId: place.center.id,
    periodStart: '2026-01-01',
    periodEnd: '2026-01-31',
    dueDays: 0,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { place, invoice: res.json() as TBillingDocumentDetail };
}

async function signOffNewStudy(place: Awaited<ReturnType<typeof createTestWorld>>) {
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    row: { status: 'HISTORY_CREATED', urgent: true },
  });
  const doctor = await signInAt(t, place, ['ROLE_DOCTOR']);
  await t.db.insert(userSignatures).values({ userId: doctor.user.id, name: 'Dr. Test' });
  saved(await lock(doctor.browser, row.id));
  const done = saved(await signOff(doctor.browser, row.id));
  expect(done.status).toBe('SIGNED_OFF');
  const [after] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, row.id));
  const payments = await t.db.select().from(studyPayments).where(eq(studyPayments.reportStatusId, row.id));
  return { after: after!, payments };
}

describe('payment before release for a center with an overdue tele invoice', () => {
  it('holds a new report for its read price while overdue, releases after the invoice is paid', async () => {
    const { place, invoice } = await dunnedWorld(true);
    // Not yet overdue (due today): released.
    expect((await signOffNewStudy(place)).payments).toEqual([]);

    t.clock.advance(2 * 86_400);
    const tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
    expect((await tele.browser.post('/api/tele-invoices/dunning/refresh')).statusCode).toBe(200);
    const held = await signOffNewStudy(place);
    expect(held.after.dunningLabels).toEqual(['INVOICE_OVERDUE']);
    expect(held.after.paymentStatus).toBe('PENDING');
    expect(held.payments).toEqual([
      expect.objectContaining({ status: 'PENDING', amountMinor: 65_000, currency: 'INR' }),
    ]);

    const paid = await tele.browser.post(`/api/tele-invoices/${invoice.id}/payments`, {
      amount: invoice.total,
      mode: 'BANK_TRANSFER',
      receivedOn: '2026-02-01',
      version: invoice.version,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const released = await signOffNewStudy(place);
    expect(released.after.dunningLabels).toEqual([]);
    expect(released.payments).toEqual([]);
  });

  it('without the group switch the dunned center still gets its reports', async () => {
    const { place } = await dunnedWorld(false);
    t.clock.advance(2 * 86_400);
    const tele = await signInAt(t, place, ['ROLE_TELE_RADIOLOGY']);
    await tele.browser.post('/api/tele-invoices/dunning/refresh');
    const signed = await signOffNewStudy(place);
    expect(signed.after.paymentStatus).toBe('NOT_REQUIRED');
    expect(signed.payments).toEqual([]);
  });
});
