import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  type TPayoutIssueResult,
  type TPayoutStatementDetail,
  calendarDayIn,
} from '@radflow/core';
import { billingLines } from '../../db/schema.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { type TestApp, createTestApp, createTestWorld, signInAt } from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';

/*
 * A paid-out study reworked (spec-core §4 Rework: every report of the row is deleted): the ledger
 * keeps its lines (an issued statement is never edited) and the rework goes through; the row's read
 * is not paid a second time when it is signed off again (billed once per side).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('reworks a row whose read and addendum are on a payout statement, and pays its second sign-off nothing more', async () => {
  const world = await createTestWorld(t.db);
  const tele = (await signInAt(t, world, ['ROLE_TELE_RADIOLOGY'])).browser;
  const doctor = await signInAt(t, world, ['ROLE_DOCTOR']);
  const calls = reportingCalls(() => t);
  for (const charge of ['READ', 'ADDENDUM'])
    expect(
      (
        await tele.post('/api/tele-payout/rates', {
          doctorUserId: null,
          modality: 'CT',
          charge,
          amount: 10,
          effectiveFrom: '2020-01-01',
        })
      ).statusCode,
    ).toBe(200);
  const { row } = await createTestStudy(t.db, { groupId: world.group.id, centerId: world.center.id });
  expect((await calls.lock(doctor.browser, row.id)).statusCode).toBe(200);
  saved(await calls.signOff(doctor.browser, row.id));
  saved(await calls.addendum(doctor.browser, row.id, '<p>More.</p>'));
  // The day in the group's zone (the payout's calendar), not the UTC one: they differ each evening.
  const today = calendarDayIn(new Date(), DEFAULT_DISPLAY_TIME_ZONE);
  const period = { periodStart: '2020-01-01', periodEnd: today };
  const run = (await tele.post('/api/tele-payout/issue', period)).json<TPayoutIssueResult>();
  const [statement] = run.issued;
  expect(statement?.total).toBe(20);

  const rework = await tele.post(`/api/report-status/rework/${row.id}`, {});
  expect(rework.statusCode, rework.body).toBe(200);
  const kept = await t.db.select().from(billingLines).where(eq(billingLines.documentId, statement!.id));
  expect(kept.map((l) => l.charge).sort()).toEqual(['ADDENDUM', 'READ']);
  const detail = (
    await tele.get(`/api/tele-payout/statements/${statement!.id}`)
  ).json<TPayoutStatementDetail>();
  expect(detail.total).toBe(20);

  expect((await calls.lock(doctor.browser, row.id)).statusCode).toBe(200);
  saved(await calls.signOff(doctor.browser, row.id));
  const preview = await tele.post('/api/tele-payout/preview', { periodStart: today, periodEnd: today });
  expect(preview.json()).toMatchObject({ doctors: [] });
});
