import { type SQL, sql } from 'drizzle-orm';
import { type TPriceCharge, startOfDayIn } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { addDays } from '../tele-billing/ledger-context.js';
import { billedPartsSql, priceChargesSql, rowModality } from '../tele-billing/priced-lines.js';

/*
 * Who read what (DECISIONS.md "What a doctor is paid for"): the DOCTOR-side charges of a group's
 * signed-off study rows that are on no payout statement yet, each with the doctor's rate in force.
 * Set-based: one statement over the group's rows (the bench is 1,000,000 studies), used by the
 * preview (read) and the issue (insert … select from the same text); priced by the invoicing's
 * builder with side DOCTOR (tele-billing/priced-lines.ts).
 */

export interface TPayoutChargeScope {
  groupId: number;
  /** Charges that arose on or before this day (the period's end; earlier unpaid ones ride along). */
  periodEnd: string;
  doctorUserId?: number | undefined;
  /** The group's display time zone: the day a charge arose in. */
  timeZone: string;
}

export interface TPayoutCharge {
  doctorUserId: number;
  reportStatusId: number;
  reportId: number | null;
  charge: TPriceCharge;
  modality: string;
  studyPart: string;
  patientName: string;
  chargedOn: string;
  priceId: number | null;
  amountMinor: number | null;
}

/**
 * The charges as a SELECT (columns as TPayoutCharge, snake case), unbilled on the DOCTOR side, each
 * with the doctor's rate in force on its day, priced by tele-billing's `priceChargesSql` (the rate
 * looked up once per distinct (doctor, modality, part, charge, day)). The rows, parts and days are
 * those of the CENTER side (tele-billing/priced-lines.ts: the row's sign-off day in the group's zone,
 * an addendum's own day), so both sides price the same reads.
 */
export function payoutChargesSql(scope: TPayoutChargeScope): SQL {
  const doctorOnly = (column: SQL) =>
    scope.doctorUserId === undefined ? sql`true` : sql`${column} = ${scope.doctorUserId}`;
  const endExclusive = startOfDayIn(addDays(scope.periodEnd, 1), scope.timeZone).toISOString();
  const charges = sql`
    with main as (
      select rs.id as report_status_id, rs.urgent, rs.patient_name, rs.study_parts, r.doctor_user_id,
             ${rowModality} as modality,
             (rs.signed_off_at at time zone ${scope.timeZone})::date as day
      from report_statuses rs
      join studies s on s.id = rs.study_id
      join reports r on r.report_status_id = rs.id and not r.is_addendum
        and r.signed_off_at is not null and not r.awaiting_verification
      where rs.group_id = ${scope.groupId} and rs.status = 'SIGNED_OFF'
        and rs.signed_off_at < ${endExclusive}::timestamptz and ${doctorOnly(sql`r.doctor_user_id`)}
    )
    select m.doctor_user_id, m.report_status_id, null::int as report_id, 'READ'::text as charge,
           m.modality, bp.study_part, m.patient_name, m.day
    from main m
    cross join lateral (${billedPartsSql(sql`m.study_parts`)}) bp
    union all
    select m.doctor_user_id, m.report_status_id, null::int, 'URGENT', m.modality, '', m.patient_name, m.day
    from main m where m.urgent
    union all
    select a.doctor_user_id, rs.id, a.id, 'ADDENDUM', ${rowModality}, '', rs.patient_name,
           (a.signed_off_at at time zone ${scope.timeZone})::date
    from reports a
    join report_statuses rs on rs.id = a.report_status_id
    join studies s on s.id = rs.study_id
    where a.is_addendum and a.signed_off_at is not null and a.signed_off_at < ${endExclusive}::timestamptz
      and rs.group_id = ${scope.groupId} and rs.status = 'SIGNED_OFF'
      and ${doctorOnly(sql`a.doctor_user_id`)}`;
  return priceChargesSql({
    groupId: scope.groupId,
    side: 'DOCTOR',
    charges,
    columns: sql`u.doctor_user_id, u.report_status_id, u.report_id, u.charge, u.modality, u.study_part,
      u.patient_name, u.day::text as charged_on, p.price_id, p.amount_minor`,
  });
}

/** The rows of a raw statement (both drivers answer `{ rows }`). */
export async function rowsOf(db: DbOrTx, statement: SQL): Promise<Array<Record<string, unknown>>> {
  return ((await db.execute(statement)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The charges of the scope, priced or not, by doctor, row and charge. */
export async function readPayoutCharges(db: DbOrTx, scope: TPayoutChargeScope): Promise<TPayoutCharge[]> {
  const rows = await rowsOf(
    db,
    sql`select * from (${payoutChargesSql(scope)}) x
        order by doctor_user_id, charged_on, report_status_id, charge, study_part, report_id`,
  );
  return rows.map((r) => ({
    doctorUserId: Number(r['doctor_user_id']),
    reportStatusId: Number(r['report_status_id']),
    reportId: num(r['report_id']),
    charge: r['charge'] as TPriceCharge,
    modality: String(r['modality']),
    studyPart: String(r['study_part']),
    patientName: String(r['patient_name']),
    chargedOn: String(r['charged_on']),
    priceId: num(r['price_id']),
    amountMinor: num(r['amount_minor']),
  }));
}
