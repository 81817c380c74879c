import {
  AppError,
  SUMMARY_MESSAGES,
  type TReportSearchAnswer,
  type TReportSearchHit,
  type TReportSearchRequest,
  type TReportSearchSnippetPart,
  REPORT_SEARCH_TOTAL_LIMIT,
  groupFlags,
  reportSearchRangeProblem,
  summaryRangeInstants,
  startOfDayIn,
  nextCalendarDay,
} from '@radflow/core';
import type { Db } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { SNIPPET_MARKS, reportPlainText } from '../reporting/report-search-text.js';
import { tagsOfReports } from '../report-tags/tag-visibility.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { toStudyDateTime } from '../worklist/list-studies.js';
import {
  alternativesOf,
  hitFields,
  searchPage,
  signedReportsOf,
  wordsOf,
} from './report-search.repository.js';

/**
 * POST /query/search (spec-core §7; issue 24 §2): the signed-off reports the caller may see whose text
 * has the keywords, filtered by modality, tag and signed-off days, newest first, one page of 20 or 50.
 * Decisions: DECISIONS.md.
 */
export async function searchReports(
  db: Db,
  auth: TAuth,
  request: TReportSearchRequest,
): Promise<TReportSearchAnswer> {
  const flags = groupFlags(await loadGroupPreferences(db, auth.user.groupId));
  if (!flags.enableReportSearch) throw new AppError('FORBIDDEN', SUMMARY_MESSAGES.notAllowed);
  const problem = reportSearchRangeProblem(request.startTime, request.endTime);
  if (problem) throw new AppError('BAD_REQUEST', problem.message, problem.field);
  const range = rangeOf(request.startTime, request.endTime, flags.displayTimeZone);
  const viewer = { userId: auth.user.id, groupId: auth.user.groupId };
  const words = await alternativesOf(db, auth.user.groupId, wordsOf(request.keywords));
  const { rows, total } = await searchPage(db, {
    scope: scopeOfAuth(auth),
    viewer,
    words,
    modality: request.modality,
    tag: request.tag,
    ...range,
    offset: request.page * request.size,
    limit: request.size,
  });
  const ids = rows.map((r) => r.id);
  const [fields, signed, tags] = await Promise.all([
    hitFields(db, ids),
    signedReportsOf(db, ids),
    tagsOfReports(db, viewer, ids),
  ]);
  const fieldsById = new Map(fields.map((f) => [f.id, f]));
  const hits = rows.flatMap((row): TReportSearchHit[] => {
    const f = fieldsById.get(row.id);
    if (!f) return [];
    return [
      {
        id: row.id,
        modality: f.modalities.join(','),
        patient_age: f.patientAge,
        patient_sex: f.patientSex,
        study_instanceuid: f.studyInstanceUid,
        api_version: f.apiVersion,
        report_with_content: signed
          .filter((r) => r.reportStatusId === row.id)
          .map((r) => ({ id: r.id, name: r.name, content: reportPlainText(r.contentHtml) })),
        reportTag: tags
          .filter((t) => t.reportStatusId === row.id)
          .map((t) => ({ createdBy: t.createdBy, globalTag: t.globalTag, tag: t.tag, id: t.id })),
        patient_name: f.patientName,
        patient_id: f.patientId,
        center_name: f.centerName,
        study_description: f.studyDescription,
        study_date: toStudyDateTime(f.studyDate, f.studyTime),
        signed_off_at: row.signedOffAt.toISOString(),
        snippet: snippetParts(row.headline),
      },
    ];
  });
  const more = total > REPORT_SEARCH_TOTAL_LIMIT;
  return {
    hits: {
      total: { value: more ? REPORT_SEARCH_TOTAL_LIMIT : total, relation: more ? 'gte' : 'eq' },
      hits,
    },
    page: request.page,
    size: request.size,
  };
}

/** Signed-off days of the group's display zone (spec-core §9 +05:30): from inclusive, to exclusive. */
function rangeOf(startDay: string, endDay: string, zone: string): { from: Date | null; to: Date | null } {
  if (startDay && endDay) return summaryRangeInstants(startDay, endDay, zone);
  return {
    from: startDay ? startOfDayIn(startDay, zone) : null,
    to: endDay ? startOfDayIn(nextCalendarDay(endDay), zone) : null,
  };
}

/** The headline split at the marks the database put around matched words: text, never HTML. */
export function snippetParts(headline: string): TReportSearchSnippetPart[] {
  const parts: TReportSearchSnippetPart[] = [];
  let rest = headline;
  while (rest.length > 0) {
    const start = rest.indexOf(SNIPPET_MARKS.start);
    if (start < 0) break;
    const stop = rest.indexOf(SNIPPET_MARKS.stop, start + 1);
    if (stop < 0) break;
    if (start > 0) parts.push({ text: rest.slice(0, start), match: false });
    parts.push({ text: rest.slice(start + 1, stop), match: true });
    rest = rest.slice(stop + 1);
  }
  const tail = rest.replace(/[\uE000\uE001]/g, '');
  if (tail) parts.push({ text: tail, match: false });
  return parts;
}
