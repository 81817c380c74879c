import { and, count, exists, gte, inArray, lt, ne, sql } from 'drizzle-orm';
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
 * cancelled. The cost follows the booked lines, not the lab's bills: the lines of the lab's slot
 * names in the range (the (name, start) index), each bill checked by its primary key.
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
  // The bill check is a per-line primary-key probe (OFFSET 0 keeps it a subplan): a semi-join let
  // the planner scan every bill of the lab instead.
  const liveBill = db
    .select({ one: sql`1` })
    .from(labBills)
    .where(
      and(
        sql`${labBills.id} = ${labBillTests.billId}`,
        inLab(labBills, auth),
        ne(labBills.status, 'CANCELLED'),
        exceptBillId === null ? undefined : ne(labBills.id, exceptBillId),
      ),
    )
    .offset(0);
  const rows = await db
    .select({
      name: labBillTests.appointmentName,
      // Epoch milliseconds: the same number from PGlite and node-postgres, whatever their date parsing.
      startMs:
        sql<number>`(extract(epoch from ${labBillTests.startTimeOfAppointment}) * 1000)::float8`.mapWith(
          Number,
        ),
      booked: count(),
    })
    .from(labBillTests)
    .where(
      and(
        inArray(labBillTests.appointmentName, [...appointmentNames]),
        gte(labBillTests.startTimeOfAppointment, from),
        lt(labBillTests.startTimeOfAppointment, to),
        ne(labBillTests.settlementStatus, 'CANCEL'),
        exists(liveBill),
      ),
    )
    .groupBy(labBillTests.appointmentName, labBillTests.startTimeOfAppointment);
  return new Map(rows.map((r) => [seatKey(r.name ?? '', new Date(r.startMs)), Number(r.booked)]));
}

export const seatKey = (name: string, start: Date) => `${name}\u0000${start.toISOString()}`;
