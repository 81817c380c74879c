import { and, count, eq, gte, lt, ne, sql } from 'drizzle-orm';
import { AppError, type TSlotWindow } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { labBillTests, labBills } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab, labOwnerOf } from '../lab-settings/lab-owner.js';

/** pg_advisory_xact_lock class of slot windows (other classes: rate-limit.ts, idempotency.ts). */
const SLOT_LOCK = 72_002;

/** A line holds a seat of a window while neither it (CANCEL) nor its bill (CANCELLED) is cancelled. */
const holdsSeat = and(ne(labBills.status, 'CANCELLED'), ne(labBillTests.settlementStatus, 'CANCEL'));

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
  const [row] = await tx
    .select({ booked: count() })
    .from(labBillTests)
    .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
    .where(
      and(
        inLab(labBills, auth),
        holdsSeat,
        eq(labBillTests.appointmentName, window.appointmentName),
        eq(labBillTests.startTimeOfAppointment, window.start),
        billId === null ? undefined : ne(labBills.id, billId),
      ),
    );
  const booked = Number(row?.booked ?? 0);
  if (booked >= window.appointmentLimit) {
    throw new AppError(
      'CONFLICT',
      `The slot ${window.appointmentName} on ${window.date} is full: ${booked} of ${window.appointmentLimit} booked. Choose another slot.`,
      'startTimeOfAppointment',
    );
  }
}

/** Seats held per (slot name, start) in [from, to): the availability of the slot picker. */
export async function bookedSeats(
  db: DbOrTx,
  auth: TAuth,
  from: Date,
  to: Date,
  appointmentName: string | null = null,
): Promise<Map<string, number>> {
  const rows = await db
    .select({
      name: labBillTests.appointmentName,
      start: labBillTests.startTimeOfAppointment,
      booked: count(),
    })
    .from(labBillTests)
    .innerJoin(labBills, eq(labBills.id, labBillTests.billId))
    .where(
      and(
        inLab(labBills, auth),
        holdsSeat,
        gte(labBillTests.startTimeOfAppointment, from),
        lt(labBillTests.startTimeOfAppointment, to),
        appointmentName === null ? undefined : eq(labBillTests.appointmentName, appointmentName),
      ),
    )
    .groupBy(labBillTests.appointmentName, labBillTests.startTimeOfAppointment);
  return new Map(rows.map((r) => [seatKey(r.name ?? '', r.start!), Number(r.booked)]));
}

export const seatKey = (name: string, start: Date) => `${name}\u0000${start.toISOString()}`;
