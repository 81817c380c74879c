import { type SQL, and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TStudyScope } from '@radflow/core';
import type { DicomJsonDataset } from '@radflow/dicom';
import type { Db } from '../../db/client.js';
import {
  type TInstanceRow,
  type TSeriesRow,
  type TStudyRow,
  instances,
  series,
  studies,
} from '../../db/schema.js';
import { listAttr, numberAttr, personNameAttr, sortedDataset, textAttr } from './dicom-json-values.js';
import { type QidoLevel, type TMatch, type TQidoQuery, toLikePattern } from './qido-query.js';
import { visibleStudies } from '../studies/study-access.js';

/**
 * QIDO-RS searches (PS3.18 §10.6) answered from the index tables alone (ARCHITECTURE §4), with the
 * caller's study scope inside every WHERE clause.
 */

const COLUMNS: Readonly<Record<string, AnyPgColumn>> = {
  '00100010': studies.patientName,
  '00100020': studies.patientId,
  '00100021': studies.issuerOfPatientId,
  '00100030': studies.patientBirthDate,
  '00100040': studies.patientSex,
  '00080020': studies.studyDate,
  '00080030': studies.studyTime,
  '00080050': studies.accessionNumber,
  '00080061': studies.modalities,
  '00080080': studies.institutionName,
  '00080090': studies.referringPhysicianName,
  '00081030': studies.studyDescription,
  '0020000D': studies.studyInstanceUid,
  '00200010': studies.studyIdentifier,
  '0020000E': series.seriesInstanceUid,
  '00080060': series.modality,
  '00200011': series.seriesNumber,
  '0008103E': series.seriesDescription,
  '00180015': series.bodyPartExamined,
  '00080018': instances.sopInstanceUid,
  '00080016': instances.sopClassUid,
  '00200013': instances.instanceNumber,
};

function columnOf(tag: string): AnyPgColumn {
  const column = COLUMNS[tag];
  if (!column) throw new Error(`no index column for ${tag}`);
  return column;
}

const PN_TAGS = new Set(['00100010', '00080090']);

function conditionOf(match: TMatch): SQL {
  const column = columnOf(match.tag);
  switch (match.kind) {
    case 'text': {
      const pattern = toLikePattern(match.pattern);
      if (PN_TAGS.has(match.tag)) {
        // Case-insensitive (the pg_trgm GIN index serves ILIKE). A name without wildcards matches
        // the alphabetic group of a name that also has ideographic/phonetic groups.
        return match.isWildcard
          ? sql`${column} ilike ${pattern}`
          : sql`(${column} ilike ${pattern} or ${column} ilike ${`${pattern}=%`})`;
      }
      if (match.isWildcard) return sql`${column} like ${pattern}`;
      return match.caseless ? sql`${column} ilike ${pattern}` : eq(column, match.pattern);
    }
    case 'uids':
      return inArray(column, match.uids);
    case 'list':
      return match.tag === '00080061'
        ? sql`${column} && ${sql`array[${sql.join(
            match.values.map((v) => sql`${v}`),
            sql`, `,
          )}]::text[]`}`
        : inArray(column, match.values);
    case 'range': {
      const parts: SQL[] = [sql`${column} <> ''`];
      if (match.from) parts.push(sql`${column} >= ${match.from}`);
      // An upper time bound 'HHMM' includes every second of that minute.
      if (match.to) parts.push(sql`${column} <= ${match.tag === '00080030' ? `${match.to}~` : match.to}`);
      return and(...parts) as SQL;
    }
    case 'integer':
      return eq(column, match.value);
  }
}

const LEVEL_DEPTH: Record<QidoLevel, number> = { study: 0, series: 1, instance: 2 };

/**
 * The WHERE clause of a search at `target` level: matches of its level and above apply to the
 * joined rows; matches of deeper levels ask that such a row exists (a study 'with a CT series').
 * Shared by QIDO-RS and the C-FIND SCP (archive/c-find.ts): one translation of the matching rules.
 */
export function archiveSearchCondition(
  scope: TStudyScope,
  target: QidoLevel,
  matches: readonly TMatch[],
  extra: SQL[],
): SQL {
  const direct = matches.filter((m) => LEVEL_DEPTH[m.level] <= LEVEL_DEPTH[target]).map(conditionOf);
  const seriesMatches = matches.filter((m) => m.level === 'series' && target === 'study').map(conditionOf);
  const instanceMatches = matches
    .filter((m) => m.level === 'instance' && target !== 'instance')
    .map(conditionOf);
  const parts: SQL[] = [visibleStudies(scope), ...extra, ...direct];
  if (seriesMatches.length > 0) {
    parts.push(
      sql`exists (select 1 from ${series} where ${series.studyId} = ${studies.id} and ${and(...seriesMatches)})`,
    );
  }
  if (instanceMatches.length > 0) {
    const parent =
      target === 'study'
        ? sql`${instances.studyId} = ${studies.id}`
        : sql`${instances.seriesId} = ${series.id}`;
    parts.push(sql`exists (select 1 from ${instances} where ${parent} and ${and(...instanceMatches)})`);
  }
  return and(...parts) as SQL;
}

// ---------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------

export interface QidoContext {
  /** `{origin}/api/dicomweb`, for RetrieveURL. */
  baseUrl: string;
}

const enc = encodeURIComponent;

/** PS3.18 Table 10.6.3-3: the study attributes of a QIDO-RS answer. */
export function studyAttributes(study: TStudyRow, context: QidoContext): DicomJsonDataset {
  return {
    '00080005': textAttr('CS', 'ISO_IR 192'),
    '00080020': textAttr('DA', study.studyDate),
    '00080030': textAttr('TM', study.studyTime),
    '00080050': textAttr('SH', study.accessionNumber),
    '00080056': textAttr('CS', 'ONLINE'),
    '00080061': listAttr('CS', study.modalities),
    '00080080': textAttr('LO', study.institutionName),
    '00080090': personNameAttr(study.referringPhysicianName),
    '00081030': textAttr('LO', study.studyDescription),
    '00081190': textAttr('UR', `${context.baseUrl}/studies/${enc(study.studyInstanceUid)}`),
    '00100010': personNameAttr(study.patientName),
    '00100020': textAttr('LO', study.patientId),
    '00100021': textAttr('LO', study.issuerOfPatientId),
    '00100030': textAttr('DA', study.patientBirthDate),
    '00100040': textAttr('CS', study.patientSex),
    '0020000D': textAttr('UI', study.studyInstanceUid),
    '00200010': textAttr('SH', study.studyIdentifier),
    '00201206': numberAttr('IS', study.seriesCount),
    '00201208': numberAttr('IS', study.instanceCount),
  };
}

/** PS3.18 Table 10.6.3-4: the series attributes. */
export function seriesAttributes(study: TStudyRow, row: TSeriesRow, context: QidoContext): DicomJsonDataset {
  return {
    '00080060': textAttr('CS', row.modality),
    '0008103E': textAttr('LO', row.seriesDescription),
    '00081190': textAttr(
      'UR',
      `${context.baseUrl}/studies/${enc(study.studyInstanceUid)}/series/${enc(row.seriesInstanceUid)}`,
    ),
    '00180015': textAttr('CS', row.bodyPartExamined),
    '0020000D': textAttr('UI', study.studyInstanceUid),
    '0020000E': textAttr('UI', row.seriesInstanceUid),
    '00200011': numberAttr('IS', row.seriesNumber),
    '00201209': numberAttr('IS', row.instanceCount),
  };
}

export type TInstanceSummary = Pick<
  TInstanceRow,
  | 'sopInstanceUid'
  | 'sopClassUid'
  | 'transferSyntaxUid'
  | 'instanceNumber'
  | 'numberOfFrames'
  | 'rows'
  | 'columns'
>;

/** PS3.18 Table 10.6.3-5: the instance attributes. */
export function instanceAttributes(
  study: TStudyRow,
  seriesRow: TSeriesRow,
  row: TInstanceSummary,
  context: QidoContext,
): DicomJsonDataset {
  const url =
    `${context.baseUrl}/studies/${enc(study.studyInstanceUid)}/series/${enc(seriesRow.seriesInstanceUid)}` +
    `/instances/${enc(row.sopInstanceUid)}`;
  return {
    '00080016': textAttr('UI', row.sopClassUid),
    '00080018': textAttr('UI', row.sopInstanceUid),
    '00080056': textAttr('CS', 'ONLINE'),
    '00080060': textAttr('CS', seriesRow.modality),
    '00081190': textAttr('UR', url),
    '00083002': textAttr('UI', row.transferSyntaxUid),
    '0020000D': textAttr('UI', study.studyInstanceUid),
    '0020000E': textAttr('UI', seriesRow.seriesInstanceUid),
    '00200011': numberAttr('IS', seriesRow.seriesNumber),
    '00200013': numberAttr('IS', row.instanceNumber),
    '00280008': row.numberOfFrames > 0 ? numberAttr('IS', row.numberOfFrames) : { vr: 'IS' },
    '00280010': numberAttr('US', row.rows),
    '00280011': numberAttr('US', row.columns),
  };
}

/**
 * Attributes of the Patient and General Study modules, and of the General Series module, that
 * `includefield=all` adds from an instance's metadata at study and series level.
 */
const STUDY_ALL_GROUPS = /^(0010|0008002|0008003|0008005|0008009|0008103|0008106|0032|00200010)/;
const SERIES_ALL_GROUPS =
  /^(00080021|00080031|0008103E|00180015|00185100|00200060|00400244|00400245|00400275)/;

function addFields(
  dataset: DicomJsonDataset,
  sample: DicomJsonDataset | null | undefined,
  fields: readonly string[],
  allPattern: RegExp | null,
): void {
  if (!sample) return;
  for (const [tag, element] of Object.entries(sample)) {
    if (tag in dataset) continue;
    if (fields.includes(tag) || allPattern?.test(tag)) dataset[tag] = element;
  }
}

const needsSample = (query: TQidoQuery) => query.includeAll || query.includeFields.length > 0;

/** Metadata of one instance of the row, for includefield beyond the index columns. */
const sampleOf = (parent: SQL) =>
  sql<DicomJsonDataset | null>`(select ${instances.metadata} from ${instances} where ${parent} order by ${instances.id} limit 1)`;

export async function searchStudies(
  db: Db,
  scope: TStudyScope,
  query: TQidoQuery,
  context: QidoContext,
): Promise<DicomJsonDataset[]> {
  const rows = await db
    .select({
      study: studies,
      sample: needsSample(query) ? sampleOf(sql`${instances.studyId} = ${studies.id}`) : sql<null>`null`,
    })
    .from(studies)
    .where(archiveSearchCondition(scope, 'study', query.matches, []))
    .orderBy(desc(studies.studyDate), asc(studies.id))
    .limit(query.limit)
    .offset(query.offset);
  return rows.map(({ study, sample }) => {
    const dataset = studyAttributes(study, context);
    addFields(dataset, sample, query.includeFields, query.includeAll ? STUDY_ALL_GROUPS : null);
    return sortedDataset(dataset);
  });
}

export async function searchSeries(
  db: Db,
  scope: TStudyScope,
  query: TQidoQuery,
  context: QidoContext,
  within: { studyId: number } | null,
): Promise<DicomJsonDataset[]> {
  const rows = await db
    .select({
      study: studies,
      series,
      sample: needsSample(query) ? sampleOf(sql`${instances.seriesId} = ${series.id}`) : sql<null>`null`,
    })
    .from(series)
    .innerJoin(studies, eq(studies.id, series.studyId))
    .where(
      archiveSearchCondition(
        scope,
        'series',
        query.matches,
        within ? [eq(series.studyId, within.studyId)] : [],
      ),
    )
    .orderBy(
      ...(within ? [] : [desc(studies.studyDate), asc(studies.id)]),
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.id),
    )
    .limit(query.limit)
    .offset(query.offset);
  return rows.map(({ study, series: row, sample }) => {
    // Series of all studies carry their study's attributes too (PS3.18 Table 10.6.3-4 note).
    const dataset = within
      ? seriesAttributes(study, row, context)
      : { ...studyAttributes(study, context), ...seriesAttributes(study, row, context) };
    addFields(dataset, sample, query.includeFields, query.includeAll ? SERIES_ALL_GROUPS : null);
    if (query.includeAll) addFields(dataset, sample, [], STUDY_ALL_GROUPS);
    return sortedDataset(dataset);
  });
}

export async function searchInstances(
  db: Db,
  scope: TStudyScope,
  query: TQidoQuery,
  context: QidoContext,
  within: { studyId: number; seriesId?: number } | null,
): Promise<DicomJsonDataset[]> {
  const extra: SQL[] = [];
  if (within) extra.push(eq(instances.studyId, within.studyId));
  if (within?.seriesId !== undefined) extra.push(eq(instances.seriesId, within.seriesId));
  const rows = await db
    .select({
      study: studies,
      series,
      instance: {
        sopInstanceUid: instances.sopInstanceUid,
        sopClassUid: instances.sopClassUid,
        transferSyntaxUid: instances.transferSyntaxUid,
        instanceNumber: instances.instanceNumber,
        numberOfFrames: instances.numberOfFrames,
        rows: instances.rows,
        columns: instances.columns,
      },
      metadata: needsSample(query) ? sql<DicomJsonDataset>`${instances.metadata}` : sql<null>`null`,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .innerJoin(studies, eq(studies.id, instances.studyId))
    .where(archiveSearchCondition(scope, 'instance', query.matches, extra))
    .orderBy(
      ...(within ? [] : [desc(studies.studyDate), asc(studies.id)]),
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.id),
      sql`${instances.instanceNumber} asc nulls last`,
      asc(instances.id),
    )
    .limit(query.limit)
    .offset(query.offset);
  return rows.map(({ study, series: seriesRow, instance, metadata }) => {
    const dataset = instanceAttributes(study, seriesRow, instance, context);
    if (!within) Object.assign(dataset, { ...studyAttributes(study, context), ...dataset });
    if (query.includeAll && metadata) {
      for (const [tag, element] of Object.entries(metadata)) if (!(tag in dataset)) dataset[tag] = element;
    } else addFields(dataset, metadata, query.includeFields, null);
    return sortedDataset(dataset);
  });
}
