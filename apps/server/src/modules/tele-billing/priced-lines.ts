import { type SQL, sql } from 'drizzle-orm';
import { startOfDayIn } from '@radflow/core';
import { addDays } from './ledger-context.js';

/*
 * The set-based heart of tele invoicing and of the doctors' payouts (DECISIONS.md "Invoicing in SQL"):
 * the charges of signed-off study rows (a READ per study part, an URGENT surcharge, an ADDENDUM per
 * addendum) not yet billed on a side, priced by the rule of core `priceInForce` (the owner's own row —
 * the center's price, the doctor's rate — before the default list, the part's price before the
 * modality's base price, the greatest effective_from on or before the charge's day in the group's
 * zone). Prices are looked up once per distinct (owner, modality, part, charge, day), not per study,
 * and joined back: 1,000,000 rows need a few thousand lookups.
 */

/**
 * The modality a row is priced by (`rs` the study row, `s` its study): the clerk's choice, else the
 * first modality DICOM names (db/row-modalities.ts's order).
 */
export const rowModality = sql`upper(case when rs.modality <> '' then rs.modality else coalesce(s.modalities[1], '') end)`;

/** Which side of the ledger a charge is priced on, and whose column owns its price. */
const SIDES = {
  CENTER: { owner: 'center_id', otherOwnerNull: sql`true` },
  DOCTOR: { owner: 'doctor_user_id', otherOwnerNull: sql`tp.center_id is null` },
} as const;
export type TPricedSide = keyof typeof SIDES;

/**
 * The study parts a row is read (and billed) as, as a LATERAL subquery of one column `study_part`:
 * core `billedParts` in SQL (each distinct trimmed part once; none is one read at the base price '').
 * Both sides bill through it, so an invoice and a payout read the same parts.
 */
export function billedPartsSql(studyParts: SQL): SQL {
  return sql`select btrim(p) as study_part from unnest(${studyParts}) p where btrim(p) <> '' group by btrim(p)
    union all
    select '' where not exists (select 1 from unnest(${studyParts}) p where btrim(p) <> '')`;
}

/**
 * Prices `charges` (a SELECT with columns report_status_id, report_id, charge, modality, study_part,
 * day and the side's owner column: center_id or doctor_user_id) on a side: leaves out what that side
 * has billed already and selects `columns` from `u` (the charge) and `p` (price_id, amount_minor; null
 * when nothing is priced for it).
 */
export function priceChargesSql(q: { groupId: number; side: TPricedSide; charges: SQL; columns: SQL }): SQL {
  const owner = sql.identifier(SIDES[q.side].owner);
  return sql`
    with charges as (${q.charges}),
    unbilled as (
      select c.* from charges c
      where not exists (
        select 1 from billing_lines bl
        where bl.group_id = ${q.groupId} and bl.side = ${q.side} and bl.report_status_id = c.report_status_id
          -- btrim: a line billed before parts were trimmed (issue 26 review) still counts as billed.
          and bl.charge = c.charge and btrim(bl.study_part) = c.study_part
          and coalesce(bl.report_id, 0) = coalesce(c.report_id, 0))
    ),
    price_keys as (select distinct ${owner}, modality, study_part, charge, day from unbilled),
    -- MATERIALIZED: inlined, the planner (misjudging the join back as one row) ran the LATERAL lookup
    -- once per charge (286,667 times for 200,000 studies, 4.3 s of a 6.6 s SELECT) instead of once per key.
    prices as materialized (
      select k.${owner}, k.modality, k.study_part, k.charge, k.day, pr.id as price_id, pr.amount_minor
      from price_keys k
      left join lateral (
        select tp.id, tp.amount_minor from tele_prices tp
        where tp.group_id = ${q.groupId} and tp.side = ${q.side} and ${SIDES[q.side].otherOwnerNull}
          and (tp.${owner} = k.${owner} or tp.${owner} is null)
          and tp.modality = k.modality and tp.charge = k.charge
          and tp.study_part in (k.study_part, '') and tp.effective_from <= k.day
        order by (tp.study_part = k.study_part) desc, (tp.${owner} is null), tp.effective_from desc, tp.id desc
        limit 1
      ) pr on true
    )
    select ${q.columns}
    from unbilled u
    join prices p on p.${owner} = u.${owner} and p.modality = u.modality and p.study_part = u.study_part
      and p.charge = u.charge and p.day = u.day`;
}

export interface TPricedScope {
  groupId: number;
  /** Null: every center of the group. */
  centerId: number | null;
  /** Centers to leave out (those already invoiced for the period). */
  excludeCenterIds: number[];
  periodStart: string;
  periodEnd: string;
  timeZone: string;
}

/**
 * The CENTER-side charges of the study rows signed off in a period, not DELETED: a SELECT of
 * (center_id, report_status_id, report_id, charge, modality, study_part, price_id, unit_minor) —
 * price_id null when nothing is priced for the charge.
 */
export function pricedChargesSql(scope: TPricedScope): SQL {
  const from = startOfDayIn(scope.periodStart, scope.timeZone).toISOString();
  const to = startOfDayIn(addDays(scope.periodEnd, 1), scope.timeZone).toISOString();
  const center = scope.centerId === null ? sql`` : sql`and rs.center_id = ${scope.centerId}`;
  const exclude =
    scope.excludeCenterIds.length === 0
      ? sql``
      : sql`and rs.center_id <> all(${`{${scope.excludeCenterIds.join(',')}}`}::int[])`;
  const charges = sql`
    with signed as (
      select rs.id as report_status_id, rs.center_id, rs.urgent, rs.study_parts,
        ${rowModality} as modality,
        (rs.signed_off_at at time zone ${scope.timeZone})::date as day
      from report_statuses rs
      join studies s on s.id = rs.study_id
      where rs.group_id = ${scope.groupId} ${center} ${exclude}
        and rs.signed_off_at >= ${from}::timestamptz and rs.signed_off_at < ${to}::timestamptz
        and rs.status <> 'DELETED'
    )
    select g.report_status_id, g.center_id, g.modality, g.day, 'READ'::text as charge, part.study_part,
      null::int as report_id
    from signed g
    cross join lateral (${billedPartsSql(sql`g.study_parts`)}) part
    union all
    select g.report_status_id, g.center_id, g.modality, g.day, 'URGENT', '', null from signed g where g.urgent
    union all
    select r.report_status_id, rs.center_id, ${rowModality},
      (r.signed_off_at at time zone ${scope.timeZone})::date, 'ADDENDUM', '', r.id
    from reports r
    join report_statuses rs on rs.id = r.report_status_id
    join studies s on s.id = rs.study_id
    where r.is_addendum and rs.group_id = ${scope.groupId} ${center} ${exclude}
      and r.signed_off_at >= ${from}::timestamptz and r.signed_off_at < ${to}::timestamptz
      and rs.status <> 'DELETED'`;
  return priceChargesSql({
    groupId: scope.groupId,
    side: 'CENTER',
    charges,
    columns: sql`u.center_id, u.report_status_id, u.report_id, u.charge, u.modality, u.study_part,
      p.price_id, p.amount_minor::bigint as unit_minor`,
  });
}
