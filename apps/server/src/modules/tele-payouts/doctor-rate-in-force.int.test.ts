import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type TDoctorRateList,
  type TPayoutPreview,
  type TPriceCandidate,
  priceInForce,
  rupeesToMinor,
} from '@radflow/core';
import { reports } from '../../db/schema.js';
import { type TestApp, createTestApp, createTestWorld, signInAt } from '../../../test/test-app.js';
import { createTestStudy } from '../../../test/worklist-test-data.js';

/*
 * One price rule on both sides: the doctor rate the payout SQL picks for every (part, day) equals core
 * `priceInForce` over the same rate rows with the doctor as the owner (own before default, the part
 * before the base part, the newest effective on or before the day).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('prices every read as core priceInForce does', async () => {
  const world = await createTestWorld(t.db);
  const tele = (await signInAt(t, world, ['ROLE_BILLER'])).browser;
  const doctor = await signInAt(t, world, ['ROLE_DOCTOR']);
  const d = doctor.user.id;
  const rates: Array<[number | null, string, number, string]> = [
    [null, '', 100, '2026-01-01'],
    [null, 'HEAD', 110, '2026-02-01'],
    [d, '', 130, '2026-03-01'],
    [d, 'HEAD', 140, '2026-04-01'],
    [d, '', 999, '2027-01-01'],
  ];
  for (const [doctorUserId, studyPart, amount, effectiveFrom] of rates) {
    const res = await tele.post('/api/tele-payout/rates', {
      doctorUserId,
      modality: 'CT',
      studyPart,
      charge: 'READ',
      amount,
      effectiveFrom,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const days = ['2025-12-20', '2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15'];
  const partsOf = [[], ['HEAD'], ['CHEST']];
  for (const day of days)
    for (const parts of partsOf) {
      const at = new Date(`${day}T12:00:00Z`);
      const { row } = await createTestStudy(t.db, {
        groupId: world.group.id,
        centerId: world.center.id,
        row: { status: 'SIGNED_OFF', studyParts: parts, signedOffAt: at, firstSignedOffAt: at },
      });
      await t.db.insert(reports).values({
        reportStatusId: row.id,
        name: 'R',
        contentHtml: '<p>x</p>',
        doctorUserId: d,
        typedByUserId: d,
        signedOffAt: at,
      });
    }
  const list = (await tele.get(`/api/tele-payout/rates?doctorUserId=${d}`)).json<TDoctorRateList>();
  const candidates: TPriceCandidate[] = list.rates.map((r) => ({
    id: r.id,
    ownerId: r.doctorUserId,
    modality: r.modality,
    studyPart: r.studyPart,
    charge: r.charge,
    amountMinor: rupeesToMinor(r.amount),
    effectiveFrom: r.effectiveFrom,
  }));
  const preview = (
    await tele.post('/api/tele-payout/preview', {
      periodStart: '2025-01-01',
      periodEnd: '2026-12-31',
      doctorUserId: d,
    })
  ).json<TPayoutPreview>();
  const lines = preview.doctors[0]?.lines ?? [];
  const expected = days.flatMap((day) =>
    partsOf.map((parts) => {
      const studyPart = parts[0] ?? '';
      const price = priceInForce(candidates, { ownerId: d, modality: 'CT', studyPart, charge: 'READ', day });
      return price === null ? null : `${day} ${studyPart} ${price.amountMinor}`;
    }),
  );
  expect(lines.map((l) => `${l.chargedOn} ${l.studyPart} ${rupeesToMinor(l.amount)}`).sort()).toEqual(
    expected.filter((e) => e !== null).sort(),
  );
  // Before any rate: nothing priced, counted as unpriced.
  expect(preview.unpriced).toBe(expected.filter((e) => e === null).length);
  expect(preview.unpriced).toBe(3);
});
