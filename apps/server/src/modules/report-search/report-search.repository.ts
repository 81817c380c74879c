import { type SQL, and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { REPORT_SEARCH_TOTAL_LIMIT, type TStudyScope, isGroupWide } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { rowModalities } from '../../db/row-modalities.js';
import { withSerialPlans } from '../../db/serial-plans.js';
import {
  centers,
  reportSearchDocuments,
  reportSearchWords,
  reportStatuses,
  reportTags,
  reports,
  studies,
} from '../../db/schema.js';
import { SNIPPET_MARKS } from '../reporting/report-search-text.js';
import { tagSeenBy } from '../report-tags/tag-visibility.js';
import { visibleReportRows } from '../studies/study-access.js';
import { nearMissesOf } from './near-misses.js';

/*
 * SQL of the report search (DECISIONS.md): the signed-off text's full-text vector (GIN), the study
 * row's access rule in the same WHERE, the group's words (pg_trgm) for near misses.
 */

/**
 * A query word the group's reports never had is read as its closest words: the words at least this
 * similar by trigrams (pg_trgm's own default threshold) are proposed, and the edit rule
 * (near-misses.ts) decides. A swap of two letters ('pancraes') shares only 0.38 of its trigrams
 * with the word meant. similarity() over the group's words, not the `%` operator: on PGlite `%` (it
 * reads pg_trgm's similarity_threshold setting) left the database looping in the next query. The
 * vocabulary of a group is bounded (tens of thousands of words), so reading it is cheap.
 */
const NEAR_MISS_SIMILARITY = 0.3;
const NEAR_MISSES_PER_WORD = 3;
/** Proposals read per word, closest first, before the edit rule (near-misses.ts) keeps the near. */
const NEAR_MISS_PROPOSALS = 10;
/** At most this many words of the keywords are searched (a pasted paragraph is not a search). */
const MAX_WORDS = 12;

export interface TSearchQuery {
  scope: TStudyScope;
  viewer: { userId: number; groupId: number };
  /** Alternatives per word: every word must match one of its alternatives. Empty: no word filter. */
  words: string[][];
  modality: string;
  tag: string;
  from: Date | null;
  to: Date | null;
  offset: number;
  limit: number;
}

/** The keywords' words, lower case, in order, without repeats. */
export function wordsOf(keywords: string): string[] {
  const words = keywords
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * Each word with what it is searched as: itself when the group's reports have it (or it is too short
 * or a number to guess at), else its closest words in the group's vocabulary within the edits its
 * length allows (itself when none is), so 'menigioma' finds 'meningioma', 'pancreatits' does not find
 * 'pancreas', and a correct word never widens.
 */
export async function alternativesOf(db: DbOrTx, groupId: number, words: string[]): Promise<string[][]> {
  const guessable = words.filter((w) => w.length >= 4 && !/^\d+$/.test(w));
  const known = new Set<string>();
  const near = new Map<string, string[]>();
  if (guessable.length > 0) {
    const list = sql`array[${sql.join(
      guessable.map((w) => sql`${w}`),
      sql`, `,
    )}]::text[]`;
    const rows = await db.execute(sql`
      select q.word,
        exists (select 1 from ${reportSearchWords} w where w.group_id = ${groupId} and w.word = q.word) as known,
        (select array_agg(c.word order by c.closeness desc, c.word) from (
          select w.word, similarity(w.word, q.word) as closeness from ${reportSearchWords} w
          where w.group_id = ${groupId} and similarity(w.word, q.word) >= ${NEAR_MISS_SIMILARITY}
          order by closeness desc, w.word limit ${NEAR_MISS_PROPOSALS}) c) as near
      from unnest(${list}) as q(word)`);
    for (const row of rowsOf<{ word: string; known: boolean; near: string[] | null }>(rows)) {
      if (row.known) known.add(row.word);
      else {
        const close = nearMissesOf(row.word, row.near ?? [], NEAR_MISSES_PER_WORD);
        if (close.length > 0) near.set(row.word, close);
      }
    }
  }
  return words.map((w) => (known.has(w) ? [w] : (near.get(w) ?? [w])));
}

/** PGlite answers `{ rows }`, node-postgres a result with `rows` too; drizzle's types differ. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The tsquery of the words: every word (one of its alternatives), English stemming. */
export function tsQueryOf(words: string[][]): SQL {
  const perWord = words.map(
    (alternatives) =>
      sql`(${sql.join(
        alternatives.map((a) => sql`plainto_tsquery('english', ${a})`),
        sql` || `,
      )})`,
  );
  // Bracketed whole: `document @@ a && b` would read as `(document @@ a) && b`.
  return sql`(${sql.join(perWord, sql` && `)})`;
}

/**
 * What the document itself must satisfy: the group (its partition: every search is inside one
 * group, DECISIONS.md "One partition per group"), its study row signed off now (the database keeps
 * the flag, migration 0059), the words, the signed-off days.
 */
function documentConditions(q: TSearchQuery, tsQuery: SQL | null): SQL[] {
  const parts: (SQL | undefined)[] = [
    eq(reportSearchDocuments.groupId, q.viewer.groupId),
    eq(reportSearchDocuments.rowSignedOff, true),
    tsQuery ? sql`${reportSearchDocuments.document} @@ ${tsQuery}` : undefined,
    q.from ? sql`${reportSearchDocuments.signedOffAt} >= ${q.from.toISOString()}` : undefined,
    q.to ? sql`${reportSearchDocuments.signedOffAt} < ${q.to.toISOString()}` : undefined,
  ];
  return parts.filter((p): p is SQL => p !== undefined);
}

/**
 * What the study row must satisfy: seen by the caller, the modality and tag; signed off too (the
 * document's flag says so already: stated here as well, it lets a key lookup read the (group,
 * status, id) index alone).
 */
function rowConditions(q: TSearchQuery): SQL[] {
  const parts: (SQL | undefined)[] = [
    eq(reportStatuses.status, 'SIGNED_OFF'),
    visibleReportRows(q.scope),
    q.modality ? sql`${q.modality.toUpperCase()} = any(${rowModalities})` : undefined,
    q.tag
      ? sql`exists (select 1 from ${reportTags} where ${reportTags.reportStatusId} = ${reportStatuses.id} and lower(${reportTags.tag}) = ${q.tag.toLowerCase()} and ${tagSeenBy(q.viewer)})`
      : undefined,
  ];
  return parts.filter((p): p is SQL => p !== undefined);
}

const studyJoinOf = (q: TSearchQuery) =>
  q.modality ? sql` join ${studies} on ${studies.id} = ${reportStatuses.studyId}` : sql``;

/**
 * The study row of the match `m.id`, looked up by its key under the row conditions. `offset 0`
 * keeps the lateral it is used in from being pulled up into a join (see pageOf).
 */
const rowOfMatch = (q: TSearchQuery, rowWhere: SQL) =>
  sql`select 1 from ${reportStatuses}${studyJoinOf(q)} where ${reportStatuses.id} = m.id and ${rowWhere} offset 0`;

/**
 * Whether the documents alone answer, without the study rows: the caller sees every report of the
 * group that is signed off now (the whole group, no modality or tag), which is what the documents'
 * own conditions say. A narrower caller's rows are read for the access rule. Reading the rows cost
 * a common phrase 10,001 key lookups (45 of its 110 ms on PGlite at 200,000 studies), and left to
 * join, the planner hashed all the group's rows first ('normal' counted in 66-106 ms at 1,000,000).
 */
export const readsDocumentsAlone = (q: TSearchQuery): boolean =>
  isGroupWide(q.scope) && !q.modality && !q.tag;

export interface TFoundRow {
  id: number;
  headline: string;
  signedOffAt: Date;
}

type TPageRow = { id: number | null; signed_off_at: string | Date | null; headline: string | null };

function foundRows(rows: TPageRow[]): TFoundRow[] {
  return rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: Number(r.id),
      headline: r.headline ?? '',
      signedOffAt: new Date(r.signed_off_at as string | Date),
    }));
}

function headlineOf(tsQuery: SQL | null): SQL {
  return tsQuery
    ? sql`ts_headline('english', d.content, ${tsQuery}, ${`StartSel=${SNIPPET_MARKS.start}, StopSel=${SNIPPET_MARKS.stop}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`})`
    : sql`left(d.content, 240)`;
}

/**
 * How many of the group's documents hold the words, as the planner reckons it from its statistics
 * of the lexemes (EXPLAIN, nothing read): which of the two plans to take. Counting the matches
 * instead reads each match from the table, which is the cost the choice is there to avoid.
 */
async function estimatedMatches(db: DbOrTx, docWhere: SQL): Promise<number> {
  const result = await db.execute(
    sql`explain (format json) select 1 from ${reportSearchDocuments} where ${docWhere}`,
  );
  const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(result);
  const plan = typeof row?.['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row?.['QUERY PLAN'];
  const rows = (plan as Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' ? rows : Number.POSITIVE_INFINITY;
}

/**
 * A rare word's matches are read from the GIN index when the planner expects at most this many of
 * them; the statement still checks the real number and gives way to the walk above the limit.
 */
const RARE_WORD_ESTIMATE = REPORT_SEARCH_TOTAL_LIMIT;

/**
 * One page of matches, newest sign-off first, with the headline of each (the matched words between
 * SNIPPET_MARKS), and the count of all matches up to REPORT_SEARCH_TOTAL_LIMIT (+1: 'more').
 *
 * Two plans (DECISIONS.md "Plans"). Words that the planner expects in few of the group's reports —
 * every diagnosis — are read from the GIN index in one statement: the matches, then the caller's
 * rows among them, each looked up by its key (a scope that narrows, as a doctor's, never makes the
 * database read the whole group), counted and paged. Commoner words (or no words) take the
 * newest-first walk of the group's sign-offs, which finds a page of a common word at once; the
 * planner left to choose for a rare word walked that index too and tested every document on it.
 */
export async function searchPage(
  db: DbOrTx,
  q: TSearchQuery,
  opts: { rareWordEstimate?: number; totalLimit?: number; rowsRead?: boolean } = {},
): Promise<{ rows: TFoundRow[]; total: number }> {
  // No parallel workers: counting a common word's 10,001 matches took 400-530 ms with two workers
  // and 80-130 ms without, on 1,000,000 studies. No JIT: the rare-word statement's estimate (a key
  // lookup per match) passes jit_above_cost, and compiling it took 26 ms of a 65 ms statement
  // (DECISIONS.md).
  return withSerialPlans(db, (tx) =>
    pageOf(tx, q, {
      ...opts,
      rareWordEstimate: opts.rareWordEstimate ?? RARE_WORD_ESTIMATE,
      totalLimit: opts.totalLimit ?? REPORT_SEARCH_TOTAL_LIMIT,
    }),
  );
}

async function pageOf(
  db: DbOrTx,
  q: TSearchQuery,
  plan: { rareWordEstimate: number; totalLimit: number; rowsRead?: boolean },
): Promise<{ rows: TFoundRow[]; total: number }> {
  // `rowsRead` (tests): the rows' plan for a caller the documents alone would answer.
  const documentsAlone = readsDocumentsAlone(q) && !plan.rowsRead;
  const tsQuery = q.words.length > 0 ? tsQueryOf(q.words) : null;
  const headline = headlineOf(tsQuery);
  const docWhere = and(...documentConditions(q, tsQuery)) as SQL;
  const rowWhere = and(...rowConditions(q)) as SQL;
  const ownMatches = tsQuery ? await estimatedMatches(db, docWhere) : Number.POSITIVE_INFINITY;
  let visibleAtLeast = 0;
  if (tsQuery && ownMatches <= plan.rareWordEstimate) {
    // v: the matches the caller sees: all of them when the documents alone answer, else each
    // match's row looked up by its key (`offset 0` keeps the lateral from being pulled up into a
    // join: the planner then hashed all the group's rows to keep a doctor's few hundred, 0.5-3 s
    // against 0.1 s on 1,000,000 studies). Past the limit the page is the walk's below; v still
    // counts the visible among the first 10,001, which spares the walk its count when they are all
    // visible (an admin's phrase the planner took for rare: 'clinical correlation').
    const few = rowsOf<TPageRow & { candidates: number; total: number }>(
      await db.execute(sql`
        with m as materialized (
          select ${reportSearchDocuments.reportStatusId} as id, ${reportSearchDocuments.signedOffAt} as signed_off_at
          from ${reportSearchDocuments} where ${docWhere} limit ${plan.totalLimit + 1}
        ), c as materialized (
          select count(*)::int as candidates from m
        ), v as (
          select m.id, m.signed_off_at from m
          ${documentsAlone ? sql`` : sql`cross join lateral (${rowOfMatch(q, rowWhere)}) r`}
        )
        select c.candidates, (select count(*) from v)::int as total, p.id, p.signed_off_at, ${headline} as headline
        from c
        left join lateral (
          select v.id, v.signed_off_at from v where c.candidates <= ${plan.totalLimit}
          order by v.signed_off_at desc, v.id desc
          limit ${q.limit} offset ${q.offset}
        ) p on true
        left join ${reportSearchDocuments} d on d.report_status_id = p.id and d.group_id = ${q.viewer.groupId}
        order by p.signed_off_at desc, p.id desc`),
    );
    const first = few[0];
    if (first && first.candidates <= plan.totalLimit) {
      return { rows: foundRows(few), total: Number(first.total) };
    }
    // More matches than the limit: the page is the walk's (newest first over all of them), and the
    // count is already known when the caller may see every one of the first 10,001.
    visibleAtLeast = Number(first?.total ?? 0);
  }
  const from = documentsAlone
    ? sql`${reportSearchDocuments}`
    : sql`${reportSearchDocuments} join ${reportStatuses} on ${reportStatuses.id} = ${reportSearchDocuments.reportStatusId}${studyJoinOf(q)}`;
  const where = documentsAlone ? docWhere : (and(docWhere, rowWhere) as SQL);
  // One after the other: a transaction is one connection (the page of a common word is a few ms).
  const page = await db.execute(sql`
      select p.id, p.signed_off_at, ${headline} as headline
      from (
        select ${reportSearchDocuments.reportStatusId} as id, ${reportSearchDocuments.signedOffAt} as signed_off_at
        from ${from} where ${where}
        order by ${reportSearchDocuments.signedOffAt} desc, ${reportSearchDocuments.reportStatusId} desc
        limit ${q.limit} offset ${q.offset}
      ) p join ${reportSearchDocuments} d on d.report_status_id = p.id and d.group_id = ${q.viewer.groupId}
      order by p.signed_off_at desc, p.id desc`);
  const rows = foundRows(rowsOf<TPageRow>(page));
  if (visibleAtLeast > plan.totalLimit) return { rows, total: visibleAtLeast };
  const count = await db.execute(sql`
      select count(*)::int as n from (
        select 1 from ${from} where ${where} limit ${plan.totalLimit + 1}
      ) c`);
  return { rows, total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

/** The fields of the result cards, for the page's ids (already checked by the search's WHERE). */
export async function hitFields(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: reportStatuses.id,
      modalities: rowModalities,
      patientAge: reportStatuses.patientAge,
      patientSex: reportStatuses.patientSex,
      patientName: reportStatuses.patientName,
      patientId: reportStatuses.patientId,
      apiVersion: reportStatuses.apiVersion,
      studyInstanceUid: studies.studyInstanceUid,
      studyDescription: studies.studyDescription,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      centerName: centers.name,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .innerJoin(centers, eq(centers.id, reportStatuses.centerId))
    .where(inArray(reportStatuses.id, ids));
}

/** The signed reports of the page's rows (main first, then addenda), as stored. */
export async function signedReportsOf(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: reports.id,
      reportStatusId: reports.reportStatusId,
      name: reports.name,
      contentHtml: reports.contentHtml,
    })
    .from(reports)
    .where(
      and(
        inArray(reports.reportStatusId, ids),
        isNotNull(reports.signedOffAt),
        eq(reports.awaitingVerification, false),
      ),
    )
    .orderBy(asc(reports.reportStatusId), asc(reports.isAddendum), asc(reports.id));
}
