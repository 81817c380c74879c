import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBill, TBillListPage, TSlotCounts } from '@radflow/core';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { everyDaySlot, labPlace, put, setCenterSection, windowOn } from '../../../test/lab-bill-data.js';

/**
 * The front desk under load (issue 25 §3–§4): invoice numbers gapless and unique when bills are
 * created at once, a double-clicked Submit or payment recorded once, two receptionists saving one
 * bill get a conflict, and a slot never overbooked. On PostgreSQL (CI) the requests truly overlap.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('at the same moment', () => {
  it('twenty bills created at once get twenty consecutive invoice numbers', async () => {
    const p = await labPlace(t);
    const desks = [p.receptionist, p.supervisor, await p.as(['ROLE_LABS_RECEPTIONIST'])];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        desks[i % desks.length]!.post('/api/lab/bill', {
          patientId: p.patient.id,
          labBillTests: [{ labTestId: p.dx.id, quantity: 1 }],
        }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const numbers = answers.map((res) => Number(res.json<TBill>().invoiceNumber)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a double-clicked Submit makes one bill and both clicks get it; a double-clicked payment pays once', async () => {
    const p = await labPlace(t);
    const body = { patientId: p.patient.id, labBillTests: [{ labTestId: p.ct.id, quantity: 1 }] };
    const headers = { 'idempotency-key': 'submit-7f3a' };
    const [one, two] = await Promise.all([
      p.receptionist.post('/api/lab/bill', body, headers),
      p.receptionist.post('/api/lab/bill', body, headers),
    ]);
    expect(one.statusCode, one.body).toBe(200);
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json<TBill>().id).toBe(one.json<TBill>().id);
    const list = (await p.receptionist.post('/api/lab/bill/search', {})).json<TBillListPage>();
    expect(list.totalElements).toBe(1);

    const bill = one.json<TBill>();
    const pay = {
      id: bill.id,
      labTransactions: [{ amount: 500, paymentMethod: 'CARD', transactionId: 'T-9' }],
    };
    const payHeaders = { 'idempotency-key': 'pay-1' };
    const paid = await Promise.all([
      put(p.receptionist, '/api/lab/bill/update-transaction', pay, payHeaders),
      put(p.receptionist, '/api/lab/bill/update-transaction', pay, payHeaders),
    ]);
    for (const res of paid) expect(res.statusCode, res.body).toBe(200);
    const after = (await p.receptionist.get(`/api/lab/bill/get/${bill.id}`)).json<TBill>();
    expect(after.labTransactions).toHaveLength(1);
    expect(after).toMatchObject({ advancePaid: 500, dueAmount: 1000 });

    // The key belongs to its first call: reused on another, it is refused.
    const reused = await p.receptionist.post('/api/lab/bill', body, payHeaders);
    expect(reused.statusCode).toBe(409);
  });

  it('two receptionists saving one bill: one saves, the other gets 409 and nothing of theirs is written', async () => {
    const p = await labPlace(t);
    const bill = (
      await p.receptionist.post('/api/lab/bill', {
        patientId: p.patient.id,
        labBillTests: [{ labTestId: p.dx.id, quantity: 1 }],
      })
    ).json<TBill>();
    const line = bill.labBillTests[0]!;
    const save = (quantity: number, remark: string) =>
      put(p.receptionist, '/api/lab/bill', {
        id: bill.id,
        version: bill.version,
        patientId: p.patient.id,
        remark,
        labBillTests: [{ id: line.id, labTestId: p.dx.id, quantity }],
      });
    const answers = await Promise.all([save(2, 'first'), save(3, 'second')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.statusCode === 200)!.json<TBill>();
    const stored = (await p.receptionist.get(`/api/lab/bill/get/${bill.id}`)).json<TBill>();
    expect(stored).toEqual(winner);
    expect(stored.version).toBe(2);
    expect(answers.find((r) => r.statusCode === 409)!.json()).toMatchObject({ additionalInfo: 'version' });
  });

  it('a slot is never overbooked: of five bookings of its last two seats at once, two win', async () => {
    const p = await labPlace(t, { appointmentSupportRIS: true });
    await setCenterSection(t.db, p.center.id, 'LAB_SLOTS', { slots: [everyDaySlot('CT Morning', 'CT', 2)] });
    const desks = [p.receptionist, p.supervisor, await p.as(['ROLE_LABS_RECEPTIONIST'])];
    const book = (i: number) =>
      desks[i % desks.length]!.post('/api/lab/bill', {
        patientId: p.patient.id,
        labBillTests: [
          { labTestId: p.ct.id, quantity: 1, appointmentName: 'CT Morning', ...windowOn('2026-12-07') },
        ],
      });
    const answers = await Promise.all([0, 1, 2, 3, 4].map(book));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json()).toMatchObject({
      errorDescription: 'The slot CT Morning on 2026-12-07 is full: 2 of 2 booked. Choose another slot.',
    });
    const counts = await p.receptionist.post('/api/lab/get-slot', {
      appointmentName: 'CT Morning',
      startTime: '2026-12-07T00:00:00+05:30',
      endTime: '2026-12-08T00:00:00+05:30',
    });
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json<TSlotCounts>().testCount).toEqual({
      [windowOn('2026-12-07').startTimeOfAppointment]: 2,
    });
  });
});
