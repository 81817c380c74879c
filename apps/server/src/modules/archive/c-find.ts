import { asc, count, eq, sum } from 'drizzle-orm';
import { AppError, type TStudyScope } from '@radflow/core';
import type { DicomJsonDataset, DicomJsonElement } from '@radflow/dicom';
import {
  DimseStatus,
  type FindAnswer,
  type FindQuery,
  type FindScpOptions,
  FindStatus,
  QUERY_RETRIEVE_FIND,
} from '@radflow/dicom/dimse';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { centers, studies } from '../../db/schema.js';
import { numberAttr, personNameAttr, textAttr } from '../dicomweb-retrieve/dicom-json-values.js';
import {
  archiveSearchCondition,
  searchInstances,
  searchSeries,
  searchStudies,
} from '../dicomweb-retrieve/qido.js';
import { type TQidoQuery, parseQidoQuery } from '../dicomweb-retrieve/qido-query.js';

/**
 * The C-FIND SCP (PS3.4 Annex C): Study Root and Patient Root Query/Retrieve – FIND, answered from the
 * index tables through the QIDO-RS query parser and search functions (one translation of the matching
 * rules to SQL). The calling AE title picks the center, as for C-STORE, and that center's studies are
 * all it sees. Each match carries the keys the identifier asked for, the unique keys of its level and
 * above, and Specific Character Set ISO_IR 192 (the index holds decoded Unicode).
 */

/** By default at most this many matches per C-FIND; the rest are not sent (the final status says Success). */
export const C_FIND_MAX_MATCHES = 1000;

type TFindLevel = 'PATIENT' | 'STUDY' | 'SERIES' | 'IMAGE';

const LEVELS_OF_MODEL: Readonly<Record<string, readonly TFindLevel[]>> = {
  [QUERY_RETRIEVE_FIND.studyRoot]: ['STUDY', 'SERIES', 'IMAGE'],
  [QUERY_RETRIEVE_FIND.patientRoot]: ['PATIENT', 'STUDY', 'SERIES', 'IMAGE'],
};

const TAG = {
  specificCharacterSet: '00080005',
  queryRetrieveLevel: '00080052',
  retrieveAeTitle: '00080054',
  retrieveUrl: '00081190',
  patientName: '00100010',
  patientId: '00100020',
  patientBirthDate: '00100030',
  patientSex: '00100040',
  studyInstanceUid: '0020000D',
  seriesInstanceUid: '0020000E',
  sopInstanceUid: '00080018',
} as const;

/** What the QIDO-RS attribute builders fill from the index columns, and what shapeMatch sets. */
const INDEXED_TAGS = new Set([
  ...['00080005', '00080016', '00080018', '00080020', '00080030', '00080050', '00080052', '00080054'],
  ...['00080056', '00080060', '00080061', '00080080', '00080090', '00081030', '0008103E', '00081190'],
  ...['00083002', '00100010', '00100020', '00100021', '00100030', '00100040', '00180015', '0020000D'],
  ...['0020000E', '00200010', '00200011', '00200013', '00201200', '00201202', '00201204', '00201206'],
  ...['00201208', '00201209', '00280008', '00280010', '00280011'],
]);

/** The unique keys every match of a level carries (PS3.4 C.6.1.1, C.6.2.1). */
function uniqueKeysOf(model: string, level: TFindLevel): string[] {
  const keys: string[] = model === QUERY_RETRIEVE_FIND.patientRoot ? [TAG.patientId] : [];
  if (level === 'PATIENT') return keys;
  keys.push(TAG.studyInstanceUid);
  if (level === 'STUDY') return keys;
  keys.push(TAG.seriesInstanceUid);
  if (level === 'SERIES') return keys;
  keys.push(TAG.sopInstanceUid);
  return keys;
}

/** One identifier value as QIDO-RS would receive it in a query string (a list joined by `\`). */
function queryValueOf(element: DicomJsonElement): string {
  return (element.Value ?? [])
    .map((value) =>
      value !== null && typeof value === 'object' && 'Alphabetic' in value
        ? String(value.Alphabetic ?? '')
        : String(value ?? ''),
    )
    .join('\\');
}

/** Matching keys of the identifier as a QIDO-RS query; every key asked for is also a return key. */
function toQidoQuery(identifier: DicomJsonDataset, maxMatches: number): TQidoQuery {
  const params: Record<string, string> = {};
  for (const [tag, element] of Object.entries(identifier)) {
    if (tag === TAG.specificCharacterSet || tag === TAG.queryRetrieveLevel) continue;
    params[tag] = queryValueOf(element);
  }
  const query = parseQidoQuery(params);
  // Keys beyond the index columns come from a stored instance's metadata (one subquery per match).
  const fromMetadata = Object.keys(identifier).filter((tag) => !INDEXED_TAGS.has(tag));
  return { ...query, limit: maxMatches, includeFields: fromMetadata };
}

/** The match as the SCU asked for it: its keys (empty when the index has no value) and the unique keys. */
function shapeMatch(
  found: DicomJsonDataset,
  identifier: DicomJsonDataset,
  model: string,
  level: TFindLevel,
  calledAet: string,
): DicomJsonDataset {
  const answer: DicomJsonDataset = {
    [TAG.specificCharacterSet]: textAttr('CS', 'ISO_IR 192'),
    [TAG.queryRetrieveLevel]: textAttr('CS', level),
  };
  for (const tag of uniqueKeysOf(model, level)) answer[tag] = found[tag] ?? { vr: 'UI' };
  for (const [tag, element] of Object.entries(identifier)) {
    if (tag in answer) continue;
    if (tag === TAG.retrieveAeTitle) answer[tag] = textAttr('AE', calledAet);
    // QIDO's RetrieveURL has no origin here; a DIMSE peer retrieves by AE title.
    else if (tag === TAG.retrieveUrl) answer[tag] = { vr: element.vr };
    else answer[tag] = found[tag] ?? { vr: element.vr };
  }
  return answer;
}

/** Patient level (Patient Root): the center's studies grouped by patient, with their counts. */
async function searchPatients(db: Db, scope: TStudyScope, query: TQidoQuery): Promise<DicomJsonDataset[]> {
  const rows = await db
    .select({
      patientId: studies.patientId,
      patientName: studies.patientName,
      patientBirthDate: studies.patientBirthDate,
      patientSex: studies.patientSex,
      studyCount: count(),
      seriesCount: sum(studies.seriesCount).mapWith(Number),
      instanceCount: sum(studies.instanceCount).mapWith(Number),
    })
    .from(studies)
    .where(archiveSearchCondition(scope, 'study', query.matches, []))
    .groupBy(studies.patientId, studies.patientName, studies.patientBirthDate, studies.patientSex)
    .orderBy(asc(studies.patientId), asc(studies.patientName))
    .limit(query.limit);
  return rows.map((row) => ({
    [TAG.patientName]: personNameAttr(row.patientName),
    [TAG.patientId]: textAttr('LO', row.patientId),
    [TAG.patientBirthDate]: textAttr('DA', row.patientBirthDate),
    [TAG.patientSex]: textAttr('CS', row.patientSex),
    '00201200': numberAttr('IS', row.studyCount),
    '00201202': numberAttr('IS', row.seriesCount),
    '00201204': numberAttr('IS', row.instanceCount),
  }));
}

function searchLevel(db: Db, scope: TStudyScope, level: TFindLevel, query: TQidoQuery) {
  // RetrieveURL is dropped from every answer (shapeMatch); the base URL does not matter.
  const context = { baseUrl: '' };
  switch (level) {
    case 'PATIENT':
      return searchPatients(db, scope, query);
    case 'STUDY':
      return searchStudies(db, scope, query, context);
    case 'SERIES':
      return searchSeries(db, scope, query, context, null);
    case 'IMAGE':
      return searchInstances(db, scope, query, context, null);
  }
}

async function centerScopeOf(db: Db, centerId: number): Promise<TStudyScope | null> {
  const [center] = await db
    .select({ groupId: centers.groupId })
    .from(centers)
    .where(eq(centers.id, centerId))
    .limit(1);
  return center ? { groupId: center.groupId, grants: [{ kind: 'center', centerId }] } : null;
}

function levelOf(identifier: DicomJsonDataset): string {
  return String(identifier[TAG.queryRetrieveLevel]?.Value?.[0] ?? '')
    .trim()
    .toUpperCase();
}

/** Answers one C-FIND for the center of the calling AE title. */
export async function findForCallingAe(
  ctx: AppContext,
  centerOf: (aeTitle: string) => Promise<number | null>,
  query: FindQuery,
  maxMatches = C_FIND_MAX_MATCHES,
): Promise<FindAnswer> {
  const centerId = await centerOf(query.callingAet);
  const scope = centerId === null ? null : await centerScopeOf(ctx.db, centerId);
  if (!scope) return { status: DimseStatus.NotAuthorized, errorComment: 'Unknown calling AE title' };
  const level = levelOf(query.identifier);
  const levels = LEVELS_OF_MODEL[query.sopClassUid] ?? [];
  if (!levels.includes(level as TFindLevel)) {
    return {
      status: FindStatus.IdentifierDoesNotMatch,
      errorComment: `QueryRetrieveLevel ${level || '(missing)'} not in this model`,
    };
  }
  let qido: TQidoQuery;
  try {
    qido = toQidoQuery(query.identifier, maxMatches);
  } catch (error) {
    if (error instanceof AppError) return { status: FindStatus.UnableToProcess, errorComment: error.message };
    throw error;
  }
  const found = await searchLevel(ctx.db, scope, level as TFindLevel, qido);
  return {
    matches: found.map((match) =>
      shapeMatch(match, query.identifier, query.sopClassUid, level as TFindLevel, query.calledAet),
    ),
  };
}

/** The C-FIND options of the archive's SCP. */
export function createFindService(
  ctx: AppContext,
  centerOf: (aeTitle: string) => Promise<number | null>,
  maxMatches = C_FIND_MAX_MATCHES,
): FindScpOptions {
  return {
    sopClassUids: [QUERY_RETRIEVE_FIND.studyRoot, QUERY_RETRIEVE_FIND.patientRoot],
    onFind: (query) => findForCallingAe(ctx, centerOf, query, maxMatches),
  };
}
