import {
  AppError,
  SLOT_LOOKUP_MAX_DAYS,
  type TAllSlots,
  type TGetSlot,
  type TSlotCounts,
  type TSlotOccurrence,
  type TSlotWindow,
  slotWindows,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadLabBillContext } from './lab-bill-context.js';
import { bookedSeats, seatKey } from './slot-bookings.js';

const DAY_MS = 86_400_000;

function rangeOf(body: { startTime: string; endTime: string }): { from: Date; to: Date } {
  const from = new Date(body.startTime);
  const to = new Date(body.endTime);
  if (to <= from) throw new AppError('BAD_REQUEST', 'endTime must be after startTime', 'endTime');
  if (to.getTime() - from.getTime() > SLOT_LOOKUP_MAX_DAYS * DAY_MS) {
    throw new AppError('BAD_REQUEST', `A slot lookup covers at most ${SLOT_LOOKUP_MAX_DAYS} days`, 'endTime');
  }
  return { from, to };
}

const occurrence = (w: TSlotWindow, booked: Map<string, number>): TSlotOccurrence => {
  const taken = booked.get(seatKey(w.appointmentName, w.start)) ?? 0;
  return {
    appointmentName: w.appointmentName,
    labModality: w.labModality,
    date: w.date,
    startTime: w.start.toISOString(),
    endTime: w.end.toISOString(),
    appointmentLimit: w.appointmentLimit,
    booked: taken,
    available: Math.max(0, w.appointmentLimit - taken),
    blocked: w.blocked,
  };
};

/** POST /api/lab/get-all-slot: every window of the lab's slots in the range, with its seats. */
export async function allSlots(
  db: DbOrTx,
  auth: TAuth,
  body: { startTime: string; endTime: string },
): Promise<TAllSlots> {
  const { from, to } = rangeOf(body);
  const ctx = await loadLabBillContext(db, auth);
  const booked = await bookedSeats(
    db,
    auth,
    from,
    to,
    ctx.slots.map((s) => s.name),
  );
  const slots = slotWindows(ctx.slots, from, to, ctx.timeZone).map((w) => occurrence(w, booked));
  const blockedDays: Record<string, string[]> = {};
  for (const s of slots)
    if (s.blocked) blockedDays[s.date] = [...(blockedDays[s.date] ?? []), s.appointmentName];
  return { slots, blockedDays };
}

/** POST /api/lab/get-slot: one slot's windows in the range and testCount by window start. */
export async function slotCounts(db: DbOrTx, auth: TAuth, body: TGetSlot): Promise<TSlotCounts> {
  const { from, to } = rangeOf(body);
  const ctx = await loadLabBillContext(db, auth);
  const slot = ctx.slots.find((s) => s.name === body.appointmentName);
  if (!slot) throw new AppError('NOT_FOUND', `No slot named ${body.appointmentName}`, 'appointmentName');
  const booked = await bookedSeats(db, auth, from, to, [slot.name]);
  const slots = slotWindows([slot], from, to, ctx.timeZone).map((w) => occurrence(w, booked));
  return { testCount: Object.fromEntries(slots.map((s) => [s.startTime, s.booked])), slots };
}
