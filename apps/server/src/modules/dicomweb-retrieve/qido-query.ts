import { AppError } from '@radflow/core';
import { tagOfKeyword, tagToHex } from '@radflow/dicom';

/**
 * QIDO-RS query parameters (PS3.18 §8.3.4, §10.6.1.2) turned into typed matches, before any SQL.
 * Pure: unit-tested beside this file.
 */

export type QidoLevel = 'study' | 'series' | 'instance';

/** How one attribute matches (PS3.4 §C.2.2.2). */
export type TMatch =
  | { kind: 'text'; level: QidoLevel; tag: string; pattern: string; isWildcard: boolean; caseless: boolean }
  | { kind: 'uids'; level: QidoLevel; tag: string; uids: string[] }
  | { kind: 'list'; level: QidoLevel; tag: string; values: string[] }
  | { kind: 'range'; level: QidoLevel; tag: string; from: string | null; to: string | null }
  | { kind: 'integer'; level: QidoLevel; tag: string; value: number };

export interface TQidoQuery {
  matches: TMatch[];
  limit: number;
  offset: number;
  /** Tags (8 hex digits) asked for beyond the defaults. */
  includeFields: string[];
  includeAll: boolean;
  /** Parameters we do not support; PS3.18 says ignore them and say so in a Warning header. */
  ignored: string[];
}

export const QIDO_DEFAULT_LIMIT = 1000;
export const QIDO_MAX_LIMIT = 10_000;

type MatchKind = 'pn' | 'text' | 'uids' | 'list' | 'date' | 'time' | 'integer' | 'exact';

/** The matching keys we index (columns of studies, series and instances), by tag. */
export const MATCHING_KEYS: Readonly<Record<string, { level: QidoLevel; kind: MatchKind }>> = {
  '00100010': { level: 'study', kind: 'pn' }, // PatientName
  '00100020': { level: 'study', kind: 'text' }, // PatientID
  '00100021': { level: 'study', kind: 'text' }, // IssuerOfPatientID: one id, two hospitals (issue 21 §8)
  '00100030': { level: 'study', kind: 'date' }, // PatientBirthDate
  '00100040': { level: 'study', kind: 'exact' }, // PatientSex
  '00080020': { level: 'study', kind: 'date' }, // StudyDate
  '00080030': { level: 'study', kind: 'time' }, // StudyTime
  '00080050': { level: 'study', kind: 'text' }, // AccessionNumber
  '00080061': { level: 'study', kind: 'list' }, // ModalitiesInStudy
  '00080080': { level: 'study', kind: 'text' }, // InstitutionName
  '00080090': { level: 'study', kind: 'pn' }, // ReferringPhysicianName
  '00081030': { level: 'study', kind: 'text' }, // StudyDescription
  '0020000D': { level: 'study', kind: 'uids' }, // StudyInstanceUID
  '00200010': { level: 'study', kind: 'text' }, // StudyID
  '0020000E': { level: 'series', kind: 'uids' }, // SeriesInstanceUID
  '00080060': { level: 'series', kind: 'list' }, // Modality
  '00200011': { level: 'series', kind: 'integer' }, // SeriesNumber
  '0008103E': { level: 'series', kind: 'text' }, // SeriesDescription
  '00180015': { level: 'series', kind: 'text' }, // BodyPartExamined
  '00080018': { level: 'instance', kind: 'uids' }, // SOPInstanceUID
  '00080016': { level: 'instance', kind: 'uids' }, // SOPClassUID
  '00200013': { level: 'instance', kind: 'integer' }, // InstanceNumber
};

const badParameter = (name: string, why: string): AppError =>
  new AppError('BAD_REQUEST', `Invalid query parameter ${name}: ${why}`, name);

/** A keyword ('PatientName') or a tag ('00100010', '0010,0010') as 8 uppercase hex digits. */
export function resolveAttribute(name: string): string | undefined {
  const hex = name.replace(/^\(?([0-9A-Fa-f]{4}),?([0-9A-Fa-f]{4})\)?$/, '$1$2');
  if (/^[0-9A-Fa-f]{8}$/.test(hex)) return hex.toUpperCase();
  const tag = tagOfKeyword(name);
  return tag === undefined ? undefined : tagToHex(tag);
}

const DATE = /^\d{8}$/;
const TIME = /^\d{2}(\d{2}(\d{2}(\.\d{1,6})?)?)?$/;

function parseRange(name: string, value: string, pattern: RegExp, what: string) {
  const dash = value.indexOf('-');
  const [from, to] = dash < 0 ? [value, value] : [value.slice(0, dash), value.slice(dash + 1)];
  const ok = (part: string) => part === '' || pattern.test(part);
  if (!ok(from) || !ok(to) || (from === '' && to === '') || (dash < 0 && from === '')) {
    throw badParameter(name, `expected ${what} or a range ${what}-${what} with an open end allowed`);
  }
  return { from: from || null, to: to || null };
}

/** PS3.18 §8.3.4.1: list matching takes comma-separated values (the backslash of PS3.4 too). */
const splitList = (value: string) =>
  value
    .split(/[,\\]/)
    .map((v) => v.trim())
    .filter(Boolean);

function toMatch(name: string, tag: string, value: string): TMatch | null {
  const key = MATCHING_KEYS[tag];
  if (!key) return null;
  const { level } = key;
  // Universal matching: an empty value or a lone '*' matches everything (PS3.4 §C.2.2.2.3).
  if (value === '' || value === '*') return null;
  switch (key.kind) {
    case 'pn':
    case 'text':
    case 'exact': {
      const isWildcard = key.kind !== 'exact' && /[*?]/.test(value);
      return { kind: 'text', level, tag, pattern: value, isWildcard, caseless: key.kind === 'pn' };
    }
    case 'uids': {
      const uids = splitList(value);
      if (uids.some((uid) => !/^[0-9A-Za-z.\-_]{1,64}$/.test(uid)))
        throw badParameter(name, 'not a UID list');
      return { kind: 'uids', level, tag, uids };
    }
    case 'list':
      return { kind: 'list', level, tag, values: splitList(value) };
    case 'date':
      return { kind: 'range', level, tag, ...parseRange(name, value, DATE, 'YYYYMMDD') };
    case 'time':
      return { kind: 'range', level, tag, ...parseRange(name, value, TIME, 'HHMMSS') };
    case 'integer':
      if (!/^-?\d{1,9}$/.test(value)) throw badParameter(name, 'expected an integer');
      return { kind: 'integer', level, tag, value: Number(value) };
  }
}

function parseCount(name: string, value: string, max: number): number {
  if (!/^\d{1,9}$/.test(value)) throw badParameter(name, 'expected a non-negative integer');
  return Math.min(Number(value), max);
}

const one = (name: string, value: string | string[]): string => {
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badParameter(name, 'given more than once');
    return value[0] as string;
  }
  return value;
};

/** Reads a QIDO-RS query string (already split by Fastify) into matches and result controls. */
export function parseQidoQuery(query: Record<string, string | string[] | undefined>): TQidoQuery {
  const result: TQidoQuery = {
    matches: [],
    limit: QIDO_DEFAULT_LIMIT,
    offset: 0,
    includeFields: [],
    includeAll: false,
    ignored: [],
  };
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'limit') result.limit = parseCount(name, one(name, raw), QIDO_MAX_LIMIT);
    else if (lower === 'offset') result.offset = parseCount(name, one(name, raw), Number.MAX_SAFE_INTEGER);
    else if (lower === 'fuzzymatching') continue;
    else if (lower === 'includefield') {
      for (const field of (Array.isArray(raw) ? raw : [raw]).flatMap(splitList)) {
        if (field === 'all') result.includeAll = true;
        else {
          const tag = resolveAttribute(field);
          if (!tag) throw badParameter(name, `unknown attribute ${field}`);
          result.includeFields.push(tag);
        }
      }
    } else {
      const tag = resolveAttribute(name);
      const match = tag ? toMatch(name, tag, one(name, raw).trim()) : null;
      if (match) result.matches.push(match);
      else if (!tag || !MATCHING_KEYS[tag]) result.ignored.push(name);
    }
  }
  return result;
}

/** `*` and `?` of a DICOM wildcard value as a LIKE pattern with `\` escapes. */
export function toLikePattern(value: string): string {
  return value
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
}
