import { z } from 'zod';
import { type TRole } from '../identity/roles.js';
import { defaultMenuContext, menuForUser } from '../identity/menus.js';
import {
  REPORT_SEARCH_PAGE_SIZES,
  REPORT_SEARCH_PAGE_SIZE_DEFAULT,
  SUMMARY_MESSAGES,
  type TRangeProblem,
  isCalendarDay,
  summaryRangeProblem,
} from './range.js';

/**
 * Report search (issue 24 §2; spec-core §2 "Report search page", §7 POST /query/search): the request,
 * the answer and who may search. The server's rules: apps/server/src/modules/report-search/DECISIONS.md.
 */

/**
 * Who may search reports: the roles whose menu has 'Report Search' (spec-core §2 Menu per role:
 * center, admin, doctor) — read from the menu table itself, so the screen and the call agree. The
 * group switch enableReportSearch is checked beside it (off: 'You are not allowed to view this page').
 */
export function canSearchReports(roles: readonly TRole[]): boolean {
  return menuForUser({ ...defaultMenuContext(roles), enableReportSearch: true }).some(
    (item) => item.key === 'report-search',
  );
}

/**
 * Elasticsearch's default `track_total_hits`: a search counts its matches exactly up to this many and
 * answers `relation: 'gte'` above, so a one-word search over millions of reports stays fast.
 */
export const REPORT_SEARCH_TOTAL_LIMIT = 10_000;
export const REPORT_SEARCH_KEYWORDS_MAX_LENGTH = 200;
/** The modality filter's choices (the page's select; the call takes any modality code). */
export const REPORT_SEARCH_MODALITIES = ['CT', 'MR', 'CR', 'DX', 'US', 'MG', 'XA', 'NM', 'PT', 'RF'] as const;

export const ZReportSearchRequest = z.object({
  /** Words to find in the signed-off report text (English stemming; a misspelt word finds its near misses). */
  keywords: z.string().trim().max(REPORT_SEARCH_KEYWORDS_MAX_LENGTH).default(''),
  /** One modality (CT, MR, ...); '' = any. */
  modality: z
    .string()
    .trim()
    .max(16)
    .regex(/^[A-Za-z0-9]*$/, 'modality must be letters and digits')
    .default(''),
  /** A tag on the study row the caller sees (their own or a global one); '' = any. */
  tag: z.string().trim().max(100).default(''),
  /** Signed-off days (yyyy-MM-dd) of the group's display time zone, both included; '' = open. */
  startTime: z.string().trim().max(10).default(''),
  endTime: z.string().trim().max(10).default(''),
  page: z.number().int().min(0).max(10_000).default(0),
  size: z
    .number()
    .int()
    .refine((n) => (REPORT_SEARCH_PAGE_SIZES as readonly number[]).includes(n), {
      message: `size must be one of ${REPORT_SEARCH_PAGE_SIZES.join(', ')}`,
    })
    .default(REPORT_SEARCH_PAGE_SIZE_DEFAULT),
});
export type TReportSearchRequest = z.infer<typeof ZReportSearchRequest>;
export type TReportSearchForm = z.input<typeof ZReportSearchRequest>;

/**
 * What is wrong with the search's dates, or null. Either may be left open; a given one must be a
 * day, and the end not before the start. No window limit: a search is paged, not aggregated.
 */
export function reportSearchRangeProblem(startDay: string, endDay: string): TRangeProblem | null {
  if (startDay && endDay) return summaryRangeProblem(startDay, endDay, Number.MAX_SAFE_INTEGER);
  if (startDay && !isCalendarDay(startDay)) {
    return { field: 'startTime', message: `startTime ${SUMMARY_MESSAGES.notADay}` };
  }
  if (endDay && !isCalendarDay(endDay))
    return { field: 'endTime', message: `endTime ${SUMMARY_MESSAGES.notADay}` };
  return null;
}

/** A piece of the snippet: text, and whether it is a matched word (the page marks it with <mark>). */
export const ZReportSearchSnippetPart = z.object({ text: z.string(), match: z.boolean() });
export type TReportSearchSnippetPart = z.infer<typeof ZReportSearchSnippetPart>;

/** One hit, with the fields spec-core §7 lists for /query/search plus what a result card shows. */
export const ZReportSearchHit = z.object({
  /** The study row's id (report_statuses.id): opens the report. */
  id: z.number().int(),
  modality: z.string(),
  patient_age: z.string(),
  patient_sex: z.string(),
  study_instanceuid: z.string(),
  api_version: z.number().int(),
  report_with_content: z.array(z.object({ id: z.number().int(), name: z.string(), content: z.string() })),
  reportTag: z.array(
    z.object({ createdBy: z.string(), globalTag: z.boolean(), tag: z.string(), id: z.number().int() }),
  ),
  patient_name: z.string(),
  patient_id: z.string(),
  center_name: z.string(),
  study_description: z.string(),
  /** 'yyyy-MM-dd HH:mm:ss' from DICOM, or null. */
  study_date: z.string().nullable(),
  signed_off_at: z.string(),
  /** Where the words were found: plain text parts, matches flagged (never HTML). */
  snippet: z.array(ZReportSearchSnippetPart),
});
export type TReportSearchHit = z.infer<typeof ZReportSearchHit>;

export const ZReportSearchAnswer = z.object({
  hits: z.object({
    total: z.object({ value: z.number().int(), relation: z.enum(['eq', 'gte']) }),
    hits: z.array(ZReportSearchHit),
  }),
  page: z.number().int(),
  size: z.number().int(),
});
export type TReportSearchAnswer = z.infer<typeof ZReportSearchAnswer>;
