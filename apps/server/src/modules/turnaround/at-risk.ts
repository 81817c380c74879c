import { and, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import {
  AT_RISK_ROWS_MAX,
  OPEN_STATUSES,
  PACE,
  type TForecastDoctor,
  type TForecastStudy,
  type TTurnaroundForecast,
  type TTurnaroundAtRiskResponse,
  type TTurnaroundAtRiskRow,
  doctorPace,
  forecastTurnaround,
  groupFlags,
  shownStatus,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { rowModalities } from '../../db/row-modalities.js';
import { centers, reportStatuses, reports, studies, userPresence, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * GET /turnaround/at-risk (issue 24 §4; README.md): the caller's open studies that are AT_RISK or
 * BREACHED under the group's signOffTimeLimit, with the forecast of core `forecastTurnaround` and the
 * doctor to reassign each to. Read only: the reassignment is the study actions' assign call.
 */
export async function listAtRisk(ctx: AppContext, auth: TAuth): Promise<TTurnaroundAtRiskResponse> {
  const now = ctx.now();
  const limit = groupFlags(await loadGroupPreferences(ctx.db, auth.user.groupId)).signOffTimeLimit;
  if (limit === null) {
    return { signOffTimeLimit: null, now: now.toISOString(), counts: { atRisk: 0, breached: 0 }, rows: [] };
  }

  const open = await openStudies(ctx.db, auth);
  const doctors = await groupDoctors(ctx.db, auth.user.groupId, now);
  const paces = await paceOf(
    ctx.db,
    doctors.map((d) => d.id),
    now,
  );
  const forecastDoctors: TForecastDoctor[] = doctors.map((d) => ({
    id: d.id,
    online: d.online,
    minutesPerReport: paces.get(d.id) ?? PACE.defaultMinutesPerReport,
  }));
  const forecastStudies: TForecastStudy[] = open.map((r) => ({
    id: r.id,
    urgent: r.urgent,
    createdAt: r.createdAt,
    firstUploadCompletedAt: r.firstUploadCompletedAt,
    doctorId: r.assignedToUserId ?? r.lockedByUserId,
  }));
  const forecasts = forecastTurnaround({
    studies: forecastStudies,
    doctors: forecastDoctors,
    limitMinutes: limit,
    now,
  });

  // At risk first (a reassignment can still save them), the least time left first; then breached,
  // the longest overdue first. Only the first AT_RISK_ROWS_MAX become rows; the counts are whole.
  const rank = (f: TTurnaroundForecast) => (f.state === 'AT_RISK' ? 0 : 1);
  const listed = forecasts
    .filter((f) => f.state !== 'ON_TRACK')
    .sort((a, b) => rank(a) - rank(b) || a.timeLeftMs - b.timeLeftMs || a.id - b.id);
  const atRiskCount = listed.filter((f) => f.state === 'AT_RISK').length;
  const counts = { atRisk: atRiskCount, breached: listed.length - atRiskCount };

  const doctorById = new Map(doctors.map((d) => [d.id, d]));
  const shown = listed.slice(0, AT_RISK_ROWS_MAX);
  const rowById = new Map(
    (
      await listedRows(
        ctx.db,
        auth,
        shown.map((f) => f.id),
      )
    ).map((r) => [r.id, r]),
  );
  // A row gone between the two reads (deleted, or no longer visible) is left out.
  const rows = shown.flatMap((f): TTurnaroundAtRiskRow[] => {
    const r = rowById.get(f.id);
    if (!r) return [];
    const suggested = f.suggestion ? doctorById.get(f.suggestion.doctorId) : undefined;
    const row: TTurnaroundAtRiskRow = {
      id: r.id,
      patientName: r.patientName,
      studyName: r.studyName,
      modality: r.modality,
      centerName: r.centerName,
      urgent: r.urgent,
      status: r.status,
      state: f.state === 'BREACHED' ? 'BREACHED' : 'AT_RISK',
      deadline: f.deadline.toISOString(),
      timeLeftMinutes: Math.floor(f.timeLeftMs / 60_000),
      forecastFinish: f.forecastFinish?.toISOString() ?? null,
      queuePosition: f.queuePosition,
      assignedTo: r.assignedEmail === null ? null : { email: r.assignedEmail, name: r.assignedName ?? '' },
      suggested:
        suggested && f.suggestion
          ? {
              email: suggested.email,
              name: suggested.name,
              forecastFinish: f.suggestion.forecastFinish.toISOString(),
            }
          : null,
    };
    return [row];
  });
  return { signOffTimeLimit: limit, now: now.toISOString(), counts, rows };
}

/**
 * The open rows the caller may see (the one access rule in the WHERE), only what the forecast reads:
 * every open row of the group is read, so each column costs (the listed ones are read again whole).
 */
async function openStudies(db: Db, auth: TAuth) {
  return db
    .select({
      id: reportStatuses.id,
      urgent: reportStatuses.urgent,
      createdAt: reportStatuses.createdAt,
      firstUploadCompletedAt: reportStatuses.firstUploadCompletedAt,
      assignedToUserId: reportStatuses.assignedToUserId,
      lockedByUserId: reportStatuses.lockedByUserId,
    })
    .from(reportStatuses)
    .where(
      and(
        visibleReportRows(scopeOfAuth(auth)),
        inArray(reportStatuses.status, [...OPEN_STATUSES]),
        isNull(reportStatuses.deletedAt),
      ),
    );
}

/** What the list shows of the listed rows (at most AT_RISK_ROWS_MAX), under the same access rule. */
async function listedRows(db: Db, auth: TAuth, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: reportStatuses.id,
      status: reportStatuses.status,
      urgent: reportStatuses.urgent,
      patientName: reportStatuses.patientName,
      studyName: reportStatuses.studyName,
      modality: sql<string>`array_to_string(${rowModalities}, ',')`,
      centerName: centers.name,
      assignedEmail: users.email,
      assignedName: users.identifier,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .leftJoin(users, eq(users.id, reportStatuses.assignedToUserId))
    .where(and(visibleReportRows(scopeOfAuth(auth)), inArray(reportStatuses.id, [...ids])));
}

/**
 * The doctors the studies may be assigned to: the active ROLE_DOCTOR users of the group (the assign
 * call's own rule; no doctor-to-modality rule exists to narrow it), each shown ONLINE or not by the
 * presence rule (core `shownStatus`; a doctor whose tab never beat is offline).
 */
async function groupDoctors(db: Db, groupId: number, now: Date) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.identifier,
      status: userPresence.status,
      updatedAt: userPresence.updatedAt,
    })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.userId, users.id))
    .where(and(eq(users.groupId, groupId), eq(users.active, true), sql`'ROLE_DOCTOR' = any(${users.roles})`));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    online:
      r.status !== null &&
      r.updatedAt !== null &&
      shownStatus({ status: r.status, updatedAt: r.updatedAt }, now) === 'ONLINE',
  }));
}

/**
 * Each doctor's pace (core `doctorPace`) from their last sign-offs of the pace window: the signed-off
 * reports they signed (addenda are not a report's worth of reading), newest PACE.lastSignOffs each.
 */
async function paceOf(db: Db, doctorIds: readonly number[], now: Date): Promise<Map<number, number>> {
  if (doctorIds.length === 0) return new Map();
  const recent = db
    .select({
      doctorId: sql<number>`${reports.signedOffByUserId}`.as('doctor_id'),
      signedOffAt: sql<Date>`${reports.signedOffAt}`.as('signed_off_at'),
      rank: sql<number>`row_number() over (partition by ${reports.signedOffByUserId} order by ${reports.signedOffAt} desc)`.as(
        'rank',
      ),
    })
    .from(reports)
    .where(
      and(
        inArray(reports.signedOffByUserId, [...doctorIds]),
        isNotNull(reports.signedOffAt),
        eq(reports.isAddendum, false),
        gt(reports.signedOffAt, new Date(now.getTime() - PACE.windowDays * DAY_MS)),
        lte(reports.signedOffAt, now),
      ),
    )
    .as('recent');
  const rows = await db
    .select({ doctorId: recent.doctorId, signedOffAt: recent.signedOffAt })
    .from(recent)
    .where(lte(recent.rank, PACE.lastSignOffs));
  const byDoctor = new Map<number, Date[]>();
  for (const r of rows) {
    const list = byDoctor.get(r.doctorId) ?? [];
    list.push(new Date(r.signedOffAt));
    byDoctor.set(r.doctorId, list);
  }
  return new Map([...byDoctor].map(([id, signOffs]) => [id, doctorPace(signOffs, now).minutesPerReport]));
}
