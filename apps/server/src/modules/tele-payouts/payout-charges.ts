import { type SQL, sql } from 'drizzle-orm';
import { type TPriceCharge, startOfDayIn } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { addDays } from '../tele-billing/ledger-context.js';
import { billedPartsSql } from '../tele-billing/priced-lines.js';

/*
 * Who read what (DECISIONS.md "What a doctor is paid for"): the DOCTOR-side charges of a group's
 * signed-off study rows that are on no payout statement yet, each with the doctor's rate in force.
 * Set-based: one statement over the group's rows (the bench is 1,000,000 studies), used by the
 * preview (read) and the issue (insert … select from the same text).
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
 * The modality a row is priced by (as tele-billing/priced-lines.ts): the clerk's choice, else the first modality DICOM names
 * (db/row-modalities.ts's order).
 */
const rowModality = sql`upper(case when rs.modality <> '' then rs.modality else coalesce(s.modalities[1], '') end)`;

/**
 * The charges as a SELECT (columns as TPayoutCharge, snake case), unbilled on the DOCTOR side, each
 * with the doctor's rate in force on its day. The rows and days are those of the CENTER side
 * (tele-billing/priced-lines.ts: the row's sign-off day in the group's zone, an addendum's own day),
 * so both sides price the same reads; rates are looked up once per distinct (doctor, modality,
 * part, charge, day), not per study.
 */
export function payoutChargesSql(scope: TPayoutChargeScope): SQL {
  const doctorOnly = (column: SQL) =>
    scope.doctorUserId === undefined ? sql`true` : sql`${column} = ${scope.doctorUserId}`;
  const endExclusive = startOfDayIn(addDays(scope.periodEnd, 1), scope.timeZone).toISOString();
  return sql`
    with main as (
      select rs.id as report_status_id, rs.urgent, rs.patient_name, rs.study_parts, r.doctor_user_id,
             ${rowModality} as modality,
             (rs.signed_off_at at time zone ${scope.timeZone})::date as charged_on
      from report_statuses rs
      join studies s on s.id = rs.study_id
      join reports r on r.report_status_id = rs.id and not r.is_addendum
        and r.signed_off_at is not null and not r.awaiting_verification
      where rs.group_id = ${scope.groupId} and rs.status = 'SIGNED_OFF'
        and rs.signed_off_at < ${endExclusive}::timestamptz and ${doctorOnly(sql`r.doctor_user_id`)}
    ),
    charges as (
      select m.doctor_user_id, m.report_status_id, null::int as report_id, 'READ'::text as charge,
             m.modality, bp.study_part, m.patient_name, m.charged_on
      from main m
      cross join lateral (${billedPartsSql(sql`m.study_parts`)}) bp
      union all
      select m.doctor_user_id, m.report_status_id, null::int, 'URGENT', m.modality, '', m.patient_name, m.charged_on
      from main m where m.urgent
      union all
      select a.doctor_user_id, rs.id, a.id, 'ADDENDUM', ${rowModality}, '', rs.patient_name,
             (a.signed_off_at at time zone ${scope.timeZone})::date
      from reports a
      join report_statuses rs on rs.id = a.report_status_id
      join studies s on s.id = rs.study_id
      where a.is_addendum and a.signed_off_at is not null and a.signed_off_at < ${endExclusive}::timestamptz
        and rs.group_id = ${scope.groupId} and rs.status = 'SIGNED_OFF'
        and ${doctorOnly(sql`a.doctor_user_id`)}
    ),
    unbilled as (
      select c.* from charges c
      where not exists (
        select 1 from billing_lines bl
        where bl.group_id = ${scope.groupId} and bl.side = 'DOCTOR' and bl.report_status_id = c.report_status_id
          and bl.charge = c.charge
          and btrim(bl.study_part) = c.study_part and coalesce(bl.report_id, 0) = coalesce(c.report_id, 0))
    ),
    rate_keys as (select distinct doctor_user_id, modality, study_part, charge, charged_on from unbilled),
    rates as (
      select k.*, price.id as price_id, price.amount_minor
      from rate_keys k
      left join lateral (${doctorRateInForce(scope.groupId)}) price on true
    )
    select u.doctor_user_id, u.report_status_id, u.report_id, u.charge, u.modality, u.study_part,
           u.patient_name, u.charged_on::text as charged_on, r.price_id, r.amount_minor
    from unbilled u
    join rates r on r.doctor_user_id = u.doctor_user_id and r.modality = u.modality
      and r.study_part = u.study_part and r.charge = u.charge and r.charged_on = u.charged_on`;
}

/**
 * The doctor's rate in force for rate key `k` (a lateral subquery): core `priceInForce` with the
 * doctor as the owner. The charge's own part before the base part (''); within a part the doctor's
 * own rates before the default doctor rates; within those the newest effective on or before the day.
 */
function doctorRateInForce(groupId: number): SQL {
  return sql`
    select p.id, p.amount_minor from tele_prices p
    where p.group_id = ${groupId} and p.side = 'DOCTOR' and p.center_id is null
      and (p.doctor_user_id = k.doctor_user_id or p.doctor_user_id is null)
      and p.modality = k.modality and p.study_part in (k.study_part, '') and p.charge = k.charge
      and p.effective_from <= k.charged_on
    order by (p.study_part <> k.study_part), (p.doctor_user_id is null), p.effective_from desc, p.id desc
    limit 1`;
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
