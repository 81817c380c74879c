import { type SQL, and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  PATIENT_SUGGESTIONS_MAX,
  type TAllPatientSearch,
  type TLabPatient,
  type TLabPatientPage,
  type TRegisterPatientSearch,
  toPageResponse,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { EXACT_COUNT_LIMIT, countUpTo, estimateRows, totalBeyondExact } from '../../db/estimated-total.js';
import { labPatients } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { inLab } from '../lab-settings/lab-owner.js';
import { toLabPatient } from './lab-patients.service.js';

/*
 * The patient searches, designed for a lab of a million patients (issue 25 §1 "instant as you
 * type"; bench/lab-patient-search.ts measures them). Each filter reads an index:
 *  - mobile prefix: the btree (lab, mobile_number) as a range. Stored mobiles are exactly 10 digits
 *    (core rule), so prefix '98' is the range '9800000000'..'9899999999', which any collation
 *    orders like the digits (a LIKE 'p%' could not use that index outside the "C" collation);
 *  - name prefix and UHID prefix: the "C"-collated expression indexes of migration 0035, where
 *    LIKE 'p%' is an index range read in order, so the first 20 come without reading the rest;
 *  - name anywhere in the name (3 letters or more): the trigram GIN index on lower(name). One and
 *    two letters have no trigram to look up; there the name must start with them.
 */

/** The text with LIKE's wildcards taken literally. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The range of 10-digit mobiles starting with `digits`; null when `digits` cannot start one. */
function mobileRange(digits: string): SQL | null {
  if (!/^\d{1,10}$/.test(digits)) return null;
  const low = digits.padEnd(10, '0');
  const high = digits.padEnd(10, '9');
  return and(sql`${labPatients.mobileNumber} >= ${low}`, sql`${labPatients.mobileNumber} <= ${high}`) as SQL;
}

const nameKey = sql`(lower(${labPatients.name}) collate "C")`;
const uhidKey = sql`(${labPatients.uhidNumber} collate "C")`;
const startsWith = (key: SQL, text: string) => sql`${key} like ${`${likeEscaped(text)}%`}`;
const nameContains = (text: string) =>
  sql`lower(${labPatients.name}) like ${`%${likeEscaped(text.toLowerCase())}%`}`;
/** The trigram index serves a piece of this many letters or more. */
const TRIGRAM_MIN = 3;

/**
 * POST /lab/register-patient/search: up to 20 patients of the caller's lab whose mobile starts
 * with the digits, or whose name starts with the text, then (3 letters and more) whose name holds
 * it elsewhere. Blank text finds nothing (spec-lab §5).
 */
export async function searchPatientsAsYouType(
  db: DbOrTx,
  auth: TAuth,
  search: TRegisterPatientSearch,
): Promise<TLabPatient[]> {
  const lab = inLab(labPatients, auth);
  if (search.mobileNumber) {
    const range = mobileRange(search.mobileNumber);
    if (!range) return [];
    const rows = await db
      .select()
      .from(labPatients)
      .where(and(lab, range))
      .orderBy(asc(labPatients.mobileNumber), asc(labPatients.id))
      .limit(PATIENT_SUGGESTIONS_MAX);
    return rows.map(toLabPatient);
  }
  const name = search.name?.toLowerCase();
  if (!name) return [];
  const first = await db
    .select()
    .from(labPatients)
    .where(and(lab, startsWith(nameKey, name)))
    .orderBy(nameKey, asc(labPatients.id))
    .limit(PATIENT_SUGGESTIONS_MAX);
  if (first.length === PATIENT_SUGGESTIONS_MAX || name.length < TRIGRAM_MIN) return first.map(toLabPatient);
  // Then names holding the text elsewhere (a surname), any order: the trigram index hands the
  // first ones found without ranking a million rows.
  const rest = await db
    .select()
    .from(labPatients)
    .where(and(lab, nameContains(name), sql`not ${startsWith(nameKey, name)}`))
    .limit(PATIENT_SUGGESTIONS_MAX - first.length);
  return [...first, ...rest].map(toLabPatient);
}

const SORT_COLUMNS = {
  id: labPatients.id,
  name: nameKey,
  uhidNumber: uhidKey,
  mobileNumber: labPatients.mobileNumber,
  createdAt: labPatients.createdAt,
} as const;

/**
 * POST /lab/all-patient/search: the all-patients list. Name anywhere in the name, mobile and UHID
 * by prefix, designation and gender exact; one page in the asked order (ties by id), and the total:
 * exact up to EXACT_COUNT_LIMIT patients, about how many beyond (db/estimated-total.ts; a center's
 * 1,000,000 patients took 250–280 ms to count, its first page 1 ms).
 */
export async function searchAllPatients(
  db: DbOrTx,
  auth: TAuth,
  search: TAllPatientSearch,
): Promise<TLabPatientPage> {
  const conditions: Array<SQL | undefined> = [inLab(labPatients, auth)];
  if (search.name) {
    conditions.push(
      search.name.length < TRIGRAM_MIN
        ? startsWith(nameKey, search.name.toLowerCase())
        : nameContains(search.name),
    );
  }
  if (search.mobileNumber) conditions.push(mobileRange(search.mobileNumber) ?? sql`false`);
  if (search.uhidNumber) conditions.push(startsWith(uhidKey, search.uhidNumber));
  if (search.designation) conditions.push(eq(labPatients.designation, search.designation));
  if (search.gender) conditions.push(eq(labPatients.gender, search.gender));
  const where = and(...conditions);
  const direction = search.sortOrder === 'ASC' ? asc : desc;
  const offset = search.page * search.size;
  // A builder per use: a dynamic query's limit() changes the builder it is called on.
  const matches = () => db.select().from(labPatients).where(where).$dynamic();
  const pageOf = (limit: number) =>
    matches()
      .orderBy(direction(SORT_COLUMNS[search.orderingCriteria]), direction(labPatients.id))
      .limit(limit)
      .offset(offset);
  const pageResponse = (rows: Array<typeof labPatients.$inferSelect>, total: number) =>
    toPageResponse(rows.map(toLabPatient), total, search.page, search.size);

  // The page one row long (is there a next one?) beside the planner's estimate of the matches.
  const [estimate, rows] = await Promise.all([estimateRows(db, matches()), pageOf(search.size + 1)]);
  const shown = rows.slice(0, search.size);
  // A short page is the last one: its end is the total.
  if (rows.length <= search.size && (rows.length > 0 || offset === 0)) {
    return pageResponse(shown, offset + rows.length);
  }
  if (estimate <= EXACT_COUNT_LIMIT) {
    const counted = await countUpTo(db, matches, EXACT_COUNT_LIMIT + 1);
    // More than the cap: the estimate was wrong, and the list is a long one after all.
    if (counted <= EXACT_COUNT_LIMIT) return pageResponse(shown, counted);
  }
  const total = await totalBeyondExact(db, {
    estimate,
    rowsRead: rows.length,
    limit: search.size,
    offset,
    matches,
  });
  return pageResponse(shown, total);
}
