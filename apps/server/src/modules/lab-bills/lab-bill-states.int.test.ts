import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAllSlots, TBill } from '@radflow/core';
import { and, asc, eq } from 'drizzle-orm';
import { labAuditEvents } from '../../db/schema.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { everyDaySlot, labPlace, put, setCenterSection, windowOn } from '../../../test/lab-bill-data.js';

/**
 * The bill's states and their rules (spec-lab §4–§5): payments while due, cancel with a reason and
 * undo, settlement and bill date for the lab admin, film size and contrast while SCHEDULED, and the
 * appointment rules of the slot picker.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TPlace = Awaited<ReturnType<typeof labPlace>>;
const newBill = async (p: TPlace, body: Record<string, unknown> = {}) => {
  const res = await p.receptionist.post('/api/lab/bill', {
    patientId: p.patient.id,
    labBillTests: [{ labTestId: p.ct.id, quantity: 2 }],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TBill>();
};
const edit = (bill: TBill, lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
  id: bill.id,
  version: bill.version,
  patientId: bill.patientId,
  labBillTests: lines,
  ...extra,
});
const lineOf = (bill: TBill, i = 0) => {
  const l = bill.labBillTests[i]!;
  return {
    id: l.id,
    labTestId: l.labTestId,
    quantity: l.quantity,
    settlementStatus: l.settlementStatus,
    refundAmount: l.refundAmount,
  };
};

describe('payments', () => {
  it('adds amounts while due, never above it, never 0', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p, { advancePaid: 1000 });
    const pay = (amount: number) =>
      put(p.receptionist, '/api/lab/bill/update-transaction', {
        id: bill.id,
        labTransactions: [{ amount, paymentMethod: 'CASH' }],
      });
    const tooMuch = await pay(2001);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({
      errorDescription: 'Advance Paid: 3001 should be less than Final Amount: 3000',
    });
    expect((await pay(0)).statusCode).toBe(400);
    const ok = await pay(2000);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<TBill>()).toMatchObject({ advancePaid: 3000, due: false, dueAmount: 0, version: 2 });
    expect(ok.json<TBill>().labTransactions.map((tr) => tr.amount)).toEqual([1000, 2000]);
    expect((await pay(1)).statusCode).toBe(400);
  });
});

describe('cancel and undo', () => {
  it('cancels with a reason of at most 255 characters; a cancelled bill takes no edit or payment; undo restores it', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p);
    const long = await put(p.receptionist, '/api/lab/cancel-status', {
      id: bill.id,
      cancellationRemark: 'x'.repeat(256),
    });
    expect(long.statusCode).toBe(400);
    const cancelled = await put(p.receptionist, '/api/lab/cancel-status', {
      id: bill.id,
      cancellationRemark: 'Wrong patient',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<TBill>()).toMatchObject({
      status: 'CANCELLED',
      cancellationRemark: 'Wrong patient',
    });
    const current = cancelled.json<TBill>();
    expect(
      (await put(p.receptionist, '/api/lab/cancel-status', { id: bill.id, cancellationRemark: 'again' }))
        .statusCode,
    ).toBe(409);
    expect((await put(p.receptionist, '/api/lab/bill', edit(current, [lineOf(current)]))).statusCode).toBe(
      409,
    );
    expect(
      (
        await put(p.receptionist, '/api/lab/bill/update-transaction', {
          id: bill.id,
          labTransactions: [{ amount: 1 }],
        })
      ).statusCode,
    ).toBe(409);

    const undo = await put(p.receptionist, '/api/lab/undo-cancel-status', { id: bill.id });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toBe(true);
    expect((await p.receptionist.get(`/api/lab/bill/get/${bill.id}`)).json<TBill>()).toMatchObject({
      status: 'OPEN',
      cancellationRemark: null,
    });
    expect((await put(p.receptionist, '/api/lab/undo-cancel-status', { id: bill.id })).statusCode).toBe(409);
    const audit = await t.db
      .select({ action: labAuditEvents.action })
      .from(labAuditEvents)
      .where(and(eq(labAuditEvents.entity, 'BILL'), eq(labAuditEvents.entityId, bill.id)))
      .orderBy(asc(labAuditEvents.id));
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'CANCELLED', 'UNDO_CANCEL']);
  });
});

describe('settlement, quantity and bill date', () => {
  it('only the lab admin changes a settlement status; refunds follow spec-lab §4; a quantity change resets them', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p); // 2 × 1500
    const asked = (status: string, refundAmount = 0) => [
      { ...lineOf(bill), settlementStatus: status, refundAmount },
    ];
    const byReceptionist = await put(p.receptionist, '/api/lab/bill', edit(bill, asked('FULL_REFUND')));
    expect(byReceptionist.statusCode).toBe(403);

    const tooMuch = await put(p.supervisor, '/api/lab/bill', edit(bill, asked('PARTIAL_REFUND', 3000.5)));
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({
      errorDescription: 'labBillTests[0]: The partial refund must be between 1 and 3000 (price × quantity)',
    });

    const partial = await put(p.supervisor, '/api/lab/bill', edit(bill, asked('PARTIAL_REFUND', 250)));
    expect(partial.statusCode, partial.body).toBe(200);
    const refunded = partial.json<TBill>();
    expect(refunded).toMatchObject({
      totalPrice: 2750,
      finalAmount: 2750,
      labBillTests: [{ refundAmount: 250, price: 2750, settlementStatus: 'PARTIAL_REFUND' }],
    });

    // The receptionist changes the quantity: the line is FULL_PRICE with refund 0 again.
    const requantified = await put(
      p.receptionist,
      '/api/lab/bill',
      edit(refunded, [{ ...lineOf(refunded), quantity: 3, settlementStatus: 'FULL_PRICE', refundAmount: 0 }]),
    );
    expect(requantified.statusCode, requantified.body).toBe(200);
    expect(requantified.json<TBill>()).toMatchObject({
      totalPrice: 4500,
      labBillTests: [{ quantity: 3, refundAmount: 0, settlementStatus: 'FULL_PRICE' }],
    });

    const cancelLine = await put(
      p.supervisor,
      '/api/lab/bill',
      edit(requantified.json<TBill>(), [
        { ...lineOf(requantified.json<TBill>()), settlementStatus: 'CANCEL' },
      ]),
    );
    expect(cancelLine.json<TBill>()).toMatchObject({
      totalPrice: 0,
      finalAmount: 0,
      labBillTests: [{ refundAmount: 4500, price: 0 }],
    });
  });

  it('a saved line is cancelled, never removed', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p, {
      labBillTests: [
        { labTestId: p.ct.id, quantity: 1 },
        { labTestId: p.dx.id, quantity: 1 },
      ],
    });
    const res = await put(p.supervisor, '/api/lab/bill', edit(bill, [lineOf(bill, 0)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorDescription:
        'The saved test DX01 cannot be removed from the bill; set its settlement status to CANCEL',
    });
  });

  it('only the lab admin changes the bill date; the initial date is kept', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p);
    const moved = '2026-11-01T10:00:00.000Z';
    expect(
      (await put(p.receptionist, '/api/lab/bill', edit(bill, [lineOf(bill)], { billDate: moved })))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await p.receptionist.post('/api/lab/bill', {
          patientId: p.patient.id,
          labBillTests: [{ labTestId: p.ct.id, quantity: 1 }],
          billDate: moved,
        })
      ).statusCode,
    ).toBe(403);
    const res = await put(p.supervisor, '/api/lab/bill', edit(bill, [lineOf(bill)], { billDate: moved }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TBill>()).toMatchObject({ billDate: moved, initialBillDate: bill.initialBillDate });
  });

  it('film size and contrast change only while SCHEDULED or on a new line; an undefined one is refused', async () => {
    const p = await labPlace(t);
    const bill = await newBill(p);
    const changed = await put(
      p.supervisor,
      '/api/lab/bill',
      edit(bill, [{ ...lineOf(bill), attributes: { contrastVolume: '50ml' } }]),
    );
    expect(changed.statusCode).toBe(409);
    const fresh = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.dx.id, quantity: 1, attributes: { filmSize: '14x17' } }],
    });
    expect(fresh.statusCode).toBe(400);
    expect(fresh.json()).toMatchObject({ errorDescription: 'Film size 14x17 is not defined for DX' });
  });
});

describe('appointments', () => {
  const DAY = '2026-12-08';
  const slotted = async (limit = 3, blocked: string[] = []) => {
    const p = await labPlace(t, { appointmentSupportRIS: true });
    await setCenterSection(t.db, p.center.id, 'LAB_SLOTS', {
      slots: [everyDaySlot('CT Morning', 'CT', limit, blocked)],
    });
    return p;
  };
  const booking = (p: TPlace, day = DAY) => ({
    labTestId: p.ct.id,
    quantity: 1,
    appointmentName: 'CT Morning',
    ...windowOn(day),
  });

  it('a booked bill is SCHEDULED until paid; the week shows its seat', async () => {
    const p = await slotted();
    const bill = await newBill(p, { labBillTests: [booking(p)] });
    expect(bill).toMatchObject({
      status: 'SCHEDULED',
      labBillTests: [{ appointmentName: 'CT Morning', ...windowOn(DAY) }],
    });
    const week = await p.receptionist.post('/api/lab/get-all-slot', {
      startTime: '2026-12-07T00:00:00+05:30',
      endTime: '2026-12-14T00:00:00+05:30',
    });
    expect(week.statusCode, week.body).toBe(200);
    const slots = week.json<TAllSlots>().slots;
    expect(slots).toHaveLength(7);
    expect(slots.find((s) => s.date === DAY)).toMatchObject({
      booked: 1,
      available: 2,
      appointmentLimit: 3,
      blocked: false,
    });
    const paid = await put(p.receptionist, '/api/lab/bill/update-transaction', {
      id: bill.id,
      labTransactions: [{ amount: 100 }],
    });
    expect(paid.json<TBill>().status).toBe('OPEN');
  });

  it("refuses with the slot picker's messages: no slot for the modality, blocked day, slot without times, tests added to a booked bill", async () => {
    const p = await slotted(3, ['2026-12-09']);
    const cases: [Record<string, unknown>[], string][] = [
      [[{ ...booking(p), labTestId: p.dx.id }], 'No slots available for this modality'],
      [
        [booking(p, '2026-12-09')],
        'Note: The following slots are blocked for this date: CT Morning (2026-12-09)',
      ],
      [
        [{ labTestId: p.ct.id, quantity: 1, appointmentName: 'CT Morning' }],
        'Select slot and date before submitting',
      ],
      [
        [booking(p), { labTestId: p.dx.id, quantity: 1 }],
        'Cannot add new tests when an appointment is already scheduled. Please remove the appointment first.',
      ],
    ];
    for (const [lines, message] of cases) {
      const res = await p.receptionist.post('/api/lab/bill', {
        patientId: p.patient.id,
        labBillTests: lines,
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json<{ errorDescription: string }>().errorDescription).toContain(message);
    }
    const bill = await newBill(p, { labBillTests: [booking(p)] });
    const added = await put(
      p.receptionist,
      '/api/lab/bill',
      edit(bill, [
        { ...lineOf(bill), appointmentName: 'CT Morning', ...windowOn(DAY) },
        { labTestId: p.dx.id, quantity: 1 },
      ]),
    );
    expect(added.statusCode).toBe(400);
    expect(added.json()).toMatchObject({
      errorDescription:
        'Cannot add new tests when an appointment is already scheduled. Please remove the appointment first.',
    });
  });

  it('booking needs appointmentSupportRIS', async () => {
    const p = await labPlace(t);
    await setCenterSection(t.db, p.center.id, 'LAB_SLOTS', { slots: [everyDaySlot('CT Morning', 'CT', 3)] });
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [booking(p)],
    });
    expect(res.statusCode).toBe(400);
  });

  it('a cancelled bill frees its seat; its undo is refused once the slot has filled', async () => {
    const p = await slotted(1);
    const first = await newBill(p, { labBillTests: [booking(p)] });
    expect(
      (await p.receptionist.post('/api/lab/bill', { patientId: p.patient.id, labBillTests: [booking(p)] }))
        .statusCode,
    ).toBe(409);
    expect(
      (await put(p.receptionist, '/api/lab/cancel-status', { id: first.id, cancellationRemark: 'moved' }))
        .statusCode,
    ).toBe(200);
    await newBill(p, { labBillTests: [booking(p)] });
    const undo = await put(p.receptionist, '/api/lab/undo-cancel-status', { id: first.id });
    expect(undo.statusCode).toBe(409);
    expect((await p.receptionist.get(`/api/lab/bill/get/${first.id}`)).json<TBill>().status).toBe(
      'CANCELLED',
    );
  });

  it('moving an appointment keeps one seat per test; removing it makes the bill OPEN', async () => {
    const p = await slotted(1);
    const bill = await newBill(p, { labBillTests: [booking(p)] });
    const moved = await put(
      p.receptionist,
      '/api/lab/bill',
      edit(bill, [{ ...lineOf(bill), appointmentName: 'CT Morning', ...windowOn('2026-12-10') }]),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    // The old day's seat is free again.
    await newBill(p, { labBillTests: [booking(p)] });
    const removed = await put(
      p.receptionist,
      '/api/lab/bill',
      edit(moved.json<TBill>(), [lineOf(moved.json<TBill>())]),
    );
    expect(removed.json<TBill>()).toMatchObject({
      status: 'OPEN',
      labBillTests: [{ appointmentName: null }],
    });
  });
});
