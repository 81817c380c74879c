import { inArray, sql } from 'drizzle-orm';
import { type TMarginReport, type TMarginRow, minorToRupees, startOfDayIn } from '@radflow/core';
import { centers, users } from '../../db/schema.js';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { addDays, loadGroupBillingFlags } from '../tele-billing/ledger-context.js';
import { rowsOf } from './payout-charges.js';

/*
 * The margin (issue 26 §2): for the study rows signed off in [from, to] (the group's days),
 * what the centers were invoiced for them (their CENTER lines) against what their doctors were paid
 * out (their DOCTOR lines), per center, per reading doctor and per modality, from the one ledger.
 * Tax is left out on both sides (it is not the group's money). Adjustments and credit notes are
 * amounts of a whole invoice, not of a study row: they are summed apart (`centerAdjustments`).
 */
export async function readMargin(
  ctx: AppContext,
  auth: TAuth,
  q: { from: string; to: string },
): Promise<TMarginReport> {
  const groupId = auth.user.groupId;
  const { displayTimeZone: tz } = await loadGroupBillingFlags(ctx.db, groupId);
  const rows = await rowsOf(
    ctx.db,
    sql`
    with read as (
      select rs.id, rs.center_id,
             upper(case when rs.modality <> '' then rs.modality else coalesce(s.modalities[1], '') end) as modality,
             (select r.doctor_user_id from reports r where r.report_status_id = rs.id and not r.is_addendum
              order by r.id limit 1) as doctor_user_id
      from report_statuses rs join studies s on s.id = rs.study_id
      where rs.group_id = ${groupId} and rs.status = 'SIGNED_OFF'
        and rs.signed_off_at >= ${startOfDayIn(q.from, tz).toISOString()}::timestamptz
        and rs.signed_off_at < ${startOfDayIn(addDays(q.to, 1), tz).toISOString()}::timestamptz
    ),
    money as (
      select x.*,
        coalesce((select sum(l.amount_minor) from billing_lines l
                  where l.group_id = ${groupId} and l.report_status_id = x.id and l.side = 'CENTER'), 0) as invoiced,
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
  // Adjustment and credit lines (negative for credits) of the CENTER documents whose period lies in [from, to].
  const [adjusted] = await rowsOf(
    ctx.db,
    sql`select coalesce(sum(l.amount_minor), 0)::bigint as minor
        from billing_documents d join billing_lines l on l.document_id = d.id
        where d.group_id = ${groupId} and d.kind in ('TELE_INVOICE', 'CREDIT_NOTE')
          and d.period_start >= ${q.from}::date and d.period_end <= ${q.to}::date
          and l.charge in ('ADJUSTMENT', 'CREDIT')`,
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
    centerAdjustments: minorToRupees(Number(adjusted?.['minor'] ?? 0)),
  };
}
