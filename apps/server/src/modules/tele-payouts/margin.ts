import { inArray, sql } from 'drizzle-orm';
import { type TMarginReport, type TMarginRow, groupFlags, minorToRupees } from '@radflow/core';
import { centers, users } from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { rowsOf } from './payout-charges.js';

/*
 * The margin (issue 26 §2): for the study rows first signed off in [from, to] (the group's days),
 * what the centers were invoiced for them (CENTER lines, less the credit lines that correct those
 * lines) against what their doctors were paid out (DOCTOR lines), per center, per reading doctor and
 * per modality, from the one ledger. Tax is left out on both sides (it is not the group's money).
 */
export async function readMargin(
  ctx: AppContext,
  auth: TAuth,
  q: { from: string; to: string },
): Promise<TMarginReport> {
  const groupId = auth.user.groupId;
  const { displayTimeZone: tz } = groupFlags(await loadGroupPreferences(ctx.db, groupId));
  const rows = await rowsOf(
    ctx.db,
    sql`
    with read as (
      select rs.id, rs.center_id,
             upper(case when rs.modality <> '' then rs.modality else coalesce(s.modalities[1], '') end) as modality,
             (select r.doctor_user_id from reports r where r.report_status_id = rs.id and not r.is_addendum
              order by r.id limit 1) as doctor_user_id
      from report_statuses rs join studies s on s.id = rs.study_id
      where rs.group_id = ${groupId} and rs.status = 'SIGNED_OFF' and rs.deleted_at is null
        and rs.first_signed_off_at >= (${q.from}::date::timestamp at time zone ${tz})
        and rs.first_signed_off_at < ((${q.to}::date + 1)::timestamp at time zone ${tz})
    ),
    money as (
      select x.*,
        coalesce((select sum(l.amount_minor) from billing_lines l
                  where l.group_id = ${groupId} and l.report_status_id = x.id and l.side = 'CENTER'), 0)
        + coalesce((select sum(c.amount_minor) from billing_lines o join billing_lines c on c.credited_line_id = o.id
                  where o.group_id = ${groupId} and o.report_status_id = x.id and o.side = 'CENTER'), 0) as invoiced,
        coalesce((select sum(l.amount_minor) from billing_lines l
                  where l.group_id = ${groupId} and l.report_status_id = x.id and l.side = 'DOCTOR'), 0) as paid_out,
        exists (select 1 from billing_lines l where l.group_id = ${groupId} and l.report_status_id = x.id
                and l.side = 'CENTER' and l.charge = 'READ') as invoiced_read,
        exists (select 1 from billing_lines l where l.group_id = ${groupId} and l.report_status_id = x.id
                and l.side = 'DOCTOR' and l.charge = 'READ') as paid_read
      from read x
    )
    select center_id, doctor_user_id, modality,
           grouping(center_id) as g_center, grouping(doctor_user_id) as g_doctor, grouping(modality) as g_modality,
           count(*)::int as studies, sum(invoiced)::bigint as invoiced, sum(paid_out)::bigint as paid_out,
           (count(*) filter (where not invoiced_read))::int as not_invoiced,
           (count(*) filter (where not paid_read))::int as not_paid_out
    from money
    group by grouping sets ((center_id), (doctor_user_id), (modality), ())`,
  );
  const centerIds = rows.filter((r) => Number(r['g_center']) === 0).map((r) => Number(r['center_id']));
  const doctorIds = rows
    .filter((r) => Number(r['g_doctor']) === 0 && r['doctor_user_id'] !== null)
    .map((r) => Number(r['doctor_user_id']));
  const centerNames = new Map(
    centerIds.length === 0
      ? []
      : (
          await ctx.db
            .select({ id: centers.id, name: centers.name })
            .from(centers)
            .where(inArray(centers.id, centerIds))
        ).map((c) => [c.id, c.name] as const),
  );
  const doctorNames = new Map(
    doctorIds.length === 0
      ? []
      : (
          await ctx.db
            .select({
              id: users.id,
              name: sql<string>`coalesce(nullif(${users.identifier}, ''), ${users.email})`,
            })
            .from(users)
            .where(inArray(users.id, doctorIds))
        ).map((u) => [u.id, u.name] as const),
  );
  const toRow = (r: Record<string, unknown>, key: string, label: string): TMarginRow => {
    const invoicedMinor = Number(r['invoiced'] ?? 0);
    const paidOutMinor = Number(r['paid_out'] ?? 0);
    return {
      key,
      label,
      studies: Number(r['studies']),
      invoiced: minorToRupees(invoicedMinor),
      paidOut: minorToRupees(paidOutMinor),
      margin: minorToRupees(invoicedMinor - paidOutMinor),
    };
  };
  const level = (r: Record<string, unknown>) =>
    `${Number(r['g_center'])}${Number(r['g_doctor'])}${Number(r['g_modality'])}`;
  const byLabel = (a: TMarginRow, b: TMarginRow) => a.label.localeCompare(b.label);
  const total = rows.find((r) => level(r) === '111');
  return {
    from: q.from,
    to: q.to,
    byCenter: rows
      .filter((r) => level(r) === '011')
      .map((r) => toRow(r, String(r['center_id']), centerNames.get(Number(r['center_id'])) ?? ''))
      .sort(byLabel),
    byDoctor: rows
      .filter((r) => level(r) === '101')
      .map((r) =>
        r['doctor_user_id'] === null
          ? toRow(r, '', 'No report')
          : toRow(r, String(r['doctor_user_id']), doctorNames.get(Number(r['doctor_user_id'])) ?? ''),
      )
      .sort(byLabel),
    byModality: rows
      .filter((r) => level(r) === '110')
      .map((r) => toRow(r, String(r['modality']), String(r['modality']) || '—'))
      .sort(byLabel),
    total: total ? toRow(total, 'total', 'Total') : toRow({ studies: 0 }, 'total', 'Total'),
    notInvoiced: Number(total?.['not_invoiced'] ?? 0),
    notPaidOut: Number(total?.['not_paid_out'] ?? 0),
  };
}
