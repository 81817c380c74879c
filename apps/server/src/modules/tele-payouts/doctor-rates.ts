import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import {
  AppError,
  PAYOUT_MESSAGES as M,
  type TAddDoctorRateBody,
  type TDoctorRate,
  type TDoctorRateList,
  ZAddDoctorRateBody,
  rupeesToMinor,
  minorToRupees,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { telePrices, users } from '../../db/schema.js';
import { auditBilling } from '../tele-billing/ledger-context.js';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';

/*
 * Doctor rates: the DOCTOR side of tele_prices (a rate per doctor, or the group's default doctor
 * rate, by modality, study part and charge, from a day on). Rows are never updated: a new rate with
 * a later effectiveFrom takes over from that day, so an issued statement keeps its amounts.
 */

const doctorName = sql<
  string | null
>`(select coalesce(nullif(u.identifier, ''), u.email) from ${users} u where u.id = ${telePrices.doctorUserId})`;

function toRate(row: typeof telePrices.$inferSelect, name: string | null): TDoctorRate {
  return {
    id: row.id,
    doctorUserId: row.doctorUserId,
    doctorName: name,
    modality: row.modality,
    studyPart: row.studyPart,
    charge: row.charge,
    amount: minorToRupees(row.amountMinor),
    effectiveFrom: row.effectiveFrom,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The group's doctors (active or not: a past statement may name one). */
async function groupDoctors(db: DbOrTx, groupId: number) {
  return db
    .select({
      id: users.id,
      name: sql<string>`coalesce(nullif(${users.identifier}, ''), ${users.email})`,
      email: users.email,
    })
    .from(users)
    .where(and(eq(users.groupId, groupId), sql`'ROLE_DOCTOR' = any(${users.roles})`))
    .orderBy(asc(users.id));
}

/** The rates of one doctor with the defaults, or every doctor rate of the group. */
export async function listDoctorRates(
  ctx: AppContext,
  auth: TAuth,
  doctorUserId?: number,
): Promise<TDoctorRateList> {
  const groupId = auth.user.groupId;
  const rows = await ctx.db
    .select({ rate: telePrices, name: doctorName })
    .from(telePrices)
    .where(
      and(
        eq(telePrices.groupId, groupId),
        eq(telePrices.side, 'DOCTOR'),
        doctorUserId === undefined
          ? undefined
          : or(eq(telePrices.doctorUserId, doctorUserId), isNull(telePrices.doctorUserId)),
      ),
    )
    .orderBy(
      sql`${telePrices.doctorUserId} nulls first`,
      asc(telePrices.modality),
      asc(telePrices.studyPart),
      asc(telePrices.charge),
      asc(telePrices.effectiveFrom),
    );
  return {
    rates: rows.map((r) => toRate(r.rate, r.name)),
    doctors: await groupDoctors(ctx.db, groupId),
  };
}

/** Adds a rate (409 when the same rate already starts on that day). */
export async function addDoctorRate(
  ctx: AppContext,
  auth: TAuth,
  input: TAddDoctorRateBody,
): Promise<TDoctorRate> {
  const body = ZAddDoctorRateBody.parse(input);
  const groupId = auth.user.groupId;
  return ctx.db.transaction(async (tx) => {
    let name: string | null = null;
    if (body.doctorUserId !== null) {
      const [doctor] = (await groupDoctors(tx, groupId)).filter((d) => d.id === body.doctorUserId);
      if (!doctor) throw new AppError('NOT_FOUND', M.notADoctor, 'doctorUserId');
      name = doctor.name;
    }
    const [row] = await tx
      .insert(telePrices)
      .values({
        groupId,
        side: 'DOCTOR',
        doctorUserId: body.doctorUserId,
        modality: body.modality,
        studyPart: body.studyPart,
        charge: body.charge,
        amountMinor: rupeesToMinor(body.amount),
        effectiveFrom: body.effectiveFrom,
        createdByUserId: auth.user.id,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('CONFLICT', M.rateExists, 'effectiveFrom');
    await auditBilling(tx, {
      groupId,
      entity: 'PRICE',
      entityId: row.id,
      action: 'DOCTOR_RATE_ADDED',
      actorUserId: auth.user.id,
      detail: {
        doctorUserId: row.doctorUserId,
        modality: row.modality,
        studyPart: row.studyPart,
        charge: row.charge,
        amountMinor: row.amountMinor,
        effectiveFrom: row.effectiveFrom,
      },
    });
    return toRate(row, name);
  });
}
