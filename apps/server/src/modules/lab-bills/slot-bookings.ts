import { and, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { AppError, type TSlotWindow } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { labBillTests, labBills } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab, labOwnerOf } from '../lab-settings/lab-owner.js';

/** pg_advisory_xact_lock class of slot windows (other classes: rate-limit.ts, idempotency.ts). */
const SLOT_LOCK = 72_002;

/**
 * Takes a seat of a slot window for a bill, or refuses with 409. The window's lock (lab, slot name,
 * start) is held to the end of the bill's transaction, so two receptionists booking the last seat at
 * the same second are counted one after the other and the second is refused: never overbooked.
 */
export async function takeSeat(tx: DbOrTx, auth: TAuth, window: TSlotWindow, billId: number | null) {
  const owner = labOwnerOf(auth);
  const start = window.start.toISOString();
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${SLOT_LOCK}::int, hashtext(${`${owner.scope}:${owner.ownerId}:${window.appointmentName}:${start}`}))`,
  );
  const seats = await bookedSeats(
    tx,
    auth,
    window.start,
    new Date(window.start.getTime() + 1),
    [window.appointmentName],
    billId,
  );
  const booked = seats.get(seatKey(window.appointmentName, window.start)) ?? 0;
  if (booked >= window.appointmentLimit) {
    throw new AppError(
      'CONFLICT',
      `The slot ${window.appointmentName} on ${window.date} is full: ${booked} of ${window.appointmentLimit} booked. Choose another slot.`,
      'startTimeOfAppointment',
    );
  }
}

/**
 * Seats held per (slot name, start) in [from, to): the availability of the slot picker and the
 * booking check. A line holds a seat while neither it (CANCEL) nor its bill (CANCELLED) is
 * cancelled. Two index steps, so the cost follows the booked lines, not the lab's bills: the lines
 * of the lab's slot names in the range (the (name, start) index), then which of their bills are the
 * lab's and not cancelled (primary key). A join let the planner scan every bill of the lab.
 */
export async function bookedSeats(
  db: DbOrTx,
  auth: TAuth,
  from: Date,
  to: Date,
  appointmentNames: readonly string[],
  exceptBillId: number | null = null,
): Promise<Map<string, number>> {
  if (appointmentNames.length === 0) return new Map();
  const lines = await db
    .select({
      billId: labBillTests.billId,
      name: labBillTests.appointmentName,
      start: labBillTests.startTimeOfAppointment,
    })
    .from(labBillTests)
    .where(
      and(
        inArray(labBillTests.appointmentName, [...appointmentNames]),
        gte(labBillTests.startTimeOfAppointment, from),
        lt(labBillTests.startTimeOfAppointment, to),
        ne(labBillTests.settlementStatus, 'CANCEL'),
      ),
    );
  if (lines.length === 0) return new Map();
  const live = await db
    .select({ id: labBills.id })
    .from(labBills)
    .where(
      and(
        inArray(labBills.id, [...new Set(lines.map((l) => l.billId))]),
        inLab(labBills, auth),
        ne(labBills.status, 'CANCELLED'),
        exceptBillId === null ? undefined : ne(labBills.id, exceptBillId),
      ),
    );
  const liveIds = new Set(live.map((b) => b.id));
  const seats = new Map<string, number>();
  for (const line of lines) {
    if (!liveIds.has(line.billId) || line.name === null || line.start === null) continue;
    const key = seatKey(line.name, line.start);
    seats.set(key, (seats.get(key) ?? 0) + 1);
  }
  return seats;
}

export const seatKey = (name: string, start: Date) => `${name}\u0000${start.toISOString()}`;
