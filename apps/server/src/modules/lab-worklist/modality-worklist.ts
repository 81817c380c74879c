import { type SQL, and, eq, sql } from 'drizzle-orm';
import { formatDisplayTime, groupFlags, startOfDayIn } from '@radflow/core';
import type { DicomJsonDataset, DicomJsonElement } from '@radflow/dicom';
import { DimseStatus, type FindAnswer, type FindQuery, FindStatus } from '@radflow/dicom/dimse';
import type { Db } from '../../db/client.js';
import { centers } from '../../db/schema.js';
import { personNameAttr, textAttr } from '../dicomweb-retrieve/dicom-json-values.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/**
 * The Modality Worklist Information Model – FIND (PS3.4 Annex K), answered from the lab's bill
 * lines: every non-cancelled line of a non-cancelled bill of the calling AE's center's lab (CENTER
 * scope, that center) is one scheduled procedure step. The port's C-FIND dispatch (archive
 * dicom-services.ts) hands this the identifier and the caller's center; DECISIONS.md in this folder
 * says which keys match and what each return key holds.
 */

/** PS3.4 K.6: Modality Worklist Information Model – FIND. */
export const MODALITY_WORKLIST_FIND = '1.2.840.10008.5.1.4.31';

export const MWL_TAG = {
  specificCharacterSet: '00080005',
  accessionNumber: '00080050',
  modality: '00080060',
  referringPhysicianName: '00080090',
  patientName: '00100010',
  patientId: '00100020',
  patientBirthDate: '00100030',
  patientSex: '00100040',
  studyInstanceUid: '0020000D',
  requestedProcedureDescription: '00321060',
  scheduledStationAeTitle: '00400001',
  spsStartDate: '00400002',
  spsStartTime: '00400003',
  spsEndDate: '00400004',
  spsEndTime: '00400005',
  spsDescription: '00400007',
  spsId: '00400009',
  scheduledProcedureStepSequence: '00400100',
  requestedProcedureId: '00401001',
} as const;

/** A bad matching key value: C-FIND status 0xC000 with this as Error Comment. */
export class WorklistQueryError extends Error {}

/** One scheduled procedure step as read from the tables. */
interface ProcedureRow {
  id: number;
  accessionNumber: string;
  testName: string;
  labModality: string;
  studyInstanceUid: string;
  start: Date | null;
  end: Date | null;
  billDate: Date;
  patientName: string;
  uhidNumber: string;
  /** YYYYMMDD */
  birthDate: string | null;
  gender: string;
  doctorName: string | null;
}

interface Caller {
  centerId: number;
  groupId: number;
  callingAet: string;
  aeTitles: readonly string[];
  timeZone: string;
}

const first = (element: DicomJsonElement | undefined): unknown => element?.Value?.[0];

/** A string key's value as the SCU sent it ('' when it is a return key only). */
function keyValue(dataset: DicomJsonDataset | undefined, tag: string): string {
  const value = first(dataset?.[tag]);
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'Alphabetic' in value) return String(value.Alphabetic ?? '').trim();
  return String(value).trim();
}

const hasWildcard = (value: string) => /[*?]/.test(value);

/** `*` / `?` (PS3.4 C.2.2.2.4) as a LIKE pattern; LIKE's own specials are escaped. */
function likePattern(value: string): string {
  return value
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
}

/** Single value matching, or wildcard matching when the value has `*` / `?`; `*` alone matches all. */
function matchCondition(column: SQL, value: string, caseInsensitive = false): SQL | undefined {
  if (value === '' || /^\*+$/.test(value)) return undefined;
  if (hasWildcard(value))
    return caseInsensitive
      ? sql`${column} ilike ${likePattern(value)}`
      : sql`${column} like ${likePattern(value)}`;
  return caseInsensitive ? sql`lower(${column}) = lower(${value})` : sql`${column} = ${value}`;
}

/** The same rule on a value in hand (AE titles are not in a table column here). */
function matchesText(candidate: string, value: string): boolean {
  if (value === '' || /^\*+$/.test(value)) return true;
  if (!hasWildcard(value)) return candidate === value;
  const pattern = value
    .replace(/[.+^${}()|[\]\\]/g, (c) => `\\${c}`)
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 's').test(candidate);
}

/**
 * A patient name key as our names are kept (one free-text name, answered as the PN's family
 * component): the alphabetic group only, trailing empty components dropped, `^` read as a space.
 */
function patientNameValue(value: string): string {
  return (value.split('=')[0] ?? '').replace(/\^+$/, '').replace(/\^/g, ' ').trim();
}

const DA = /^\d{8}$/;

function dayOf(da: string, key: string): string {
  if (!DA.test(da)) throw new WorklistQueryError(`${key} is not a date (YYYYMMDD): ${da}`);
  const day = `${da.slice(0, 4)}-${da.slice(4, 6)}-${da.slice(6, 8)}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day)
    throw new WorklistQueryError(`${key} is not a date (YYYYMMDD): ${da}`);
  return day;
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * ScheduledProcedureStepStartDate as instants [from, to): a single date, or a range `a-b`, `a-`,
 * `-b` (PS3.4 C.2.2.2.5), each day a day of the group's display time zone.
 */
export function dateRangeOf(value: string, timeZone: string): { from?: Date; to?: Date } | null {
  if (value === '') return null;
  const key = 'ScheduledProcedureStepStartDate';
  const parts = value.split('-');
  if (parts.length === 1) {
    const day = dayOf(value, key);
    return { from: startOfDayIn(day, timeZone), to: startOfDayIn(nextDay(day), timeZone) };
  }
  if (parts.length !== 2 || (parts[0] === '' && parts[1] === ''))
    throw new WorklistQueryError(`${key} is not a date range: ${value}`);
  const [a = '', b = ''] = parts;
  const range: { from?: Date; to?: Date } = {};
  if (a) range.from = startOfDayIn(dayOf(a, key), timeZone);
  if (b) range.to = startOfDayIn(nextDay(dayOf(b, key)), timeZone);
  if (range.from && range.to && range.from >= range.to)
    throw new WorklistQueryError(`${key} range ends before it starts: ${value}`);
  return range;
}

/** yyyy-MM-dd HH:mm:ss in the zone → DICOM DA and TM. */
function wallClockOf(at: Date, timeZone: string): { da: string; tm: string } {
  const text = formatDisplayTime(at, timeZone, { label: false });
  return { da: text.slice(0, 10).replaceAll('-', ''), tm: text.slice(11, 19).replaceAll(':', '') };
}

/** A free-text name as a PN: the whole name in the family component, no PN delimiters inside. */
function personName(name: string | null): DicomJsonElement {
  const cleaned = (name ?? '')
    .replace(/[\\^=]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return personNameAttr(cleaned);
}

async function loadCaller(db: Db, centerId: number, callingAet: string): Promise<Caller | null> {
  const [center] = await db
    .select({ groupId: centers.groupId, aeTitles: centers.aeTitles })
    .from(centers)
    .where(eq(centers.id, centerId))
    .limit(1);
  if (!center) return null;
  const timeZone = groupFlags(await loadGroupPreferences(db, center.groupId)).displayTimeZone;
  return {
    centerId,
    groupId: center.groupId,
    callingAet: callingAet.trim(),
    aeTitles: (center.aeTitles ?? []).map((t) => t.trim()),
    timeZone,
  };
}

/** A row of the raw query: times as epoch milliseconds, the birth date as YYYYMMDD. */
interface RawRow {
  id: number;
  accession_number: string;
  test_name: string;
  lab_modality: string;
  study_instance_uid: string;
  start_ms: number | string | null;
  end_ms: number | string | null;
  bill_ms: number | string;
  patient_name: string;
  uhid_number: string;
  birth_date: string | null;
  gender: string;
  doctor_name: string | null;
}

const ms = (value: number | string | null) => (value === null ? null : new Date(Number(value)));

/**
 * The columns of a procedure, each looked up by primary key for the line in hand (LATERAL): the
 * planner otherwise hashed the whole patients and lines tables for a day's few hundred rows, a cost
 * that grows with the lab's history.
 */
const SELECT = sql`select bt.id, bt.accession_number, bt.test_name, bt.lab_modality, bt.study_instance_uid,
  extract(epoch from bt.start_time_of_appointment) * 1000 as start_ms,
  extract(epoch from bt.end_time_of_appointment) * 1000 as end_ms,
  extract(epoch from b.bill_date) * 1000 as bill_ms,
  p.name as patient_name, p.uhid_number, to_char(p.date_birth, 'YYYYMMDD') as birth_date, p.gender,
  d.name as doctor_name`;
const PEOPLE = sql`cross join lateral (select p.name, p.uhid_number, p.date_birth, p.gender
    from lab_patients p where p.id = b.patient_id) p
  left join lateral (select d.name from lab_referring_doctors d where d.id = b.referring_doctor_id) d on true`;

/**
 * The center's scheduled procedures matching the keys, at most `limit`. With a date range, two
 * indexed reads (lines with an appointment by its start, the others by their bill's date), merged;
 * without one, the most recent first.
 */
async function searchProcedures(
  db: Db,
  caller: Caller,
  keys: { modality: string; patientName: string; patientId: string; accessionNumber: string },
  range: { from?: Date; to?: Date } | null,
  limit: number,
): Promise<ProcedureRow[]> {
  const bill = sql`b.group_id = ${caller.groupId} and b.lab_scope = 'CENTER' and b.lab_owner_id = ${caller.centerId}
    and b.status <> 'CANCELLED'`;
  const line = and(
    sql`bt.settlement_status <> 'CANCEL'`,
    matchCondition(sql`bt.lab_modality`, keys.modality),
    matchCondition(sql`bt.accession_number`, keys.accessionNumber),
  ) as SQL;
  const people = and(
    sql`true`,
    matchCondition(sql`p.name`, patientNameValue(keys.patientName), true),
    matchCondition(sql`p.uhid_number`, keys.patientId),
  ) as SQL;
  const between = (column: SQL) =>
    and(
      sql`true`,
      range?.from ? sql`${column} >= ${range.from.toISOString()}::timestamptz` : undefined,
      range?.to ? sql`${column} < ${range.to.toISOString()}::timestamptz` : undefined,
    ) as SQL;
  const run = async (query: SQL) => {
    const result = await db.execute(query);
    return (result as unknown as { rows: RawRow[] }).rows;
  };
  let raw: RawRow[];
  if (!range) {
    // No date asked: the most recent first, so the cap keeps today's rather than the oldest.
    raw = await run(sql`${SELECT} from lab_bills b
      cross join lateral (select * from lab_bill_tests bt where bt.bill_id = b.id) bt ${PEOPLE}
      where ${bill} and ${line} and ${people}
      order by coalesce(bt.start_time_of_appointment, b.bill_date) desc, bt.id desc limit ${limit}`);
  } else {
    const [appointments, billed] = await Promise.all([
      run(sql`${SELECT} from lab_bill_tests bt
        cross join lateral (select * from lab_bills b where b.id = bt.bill_id) b ${PEOPLE}
        where bt.start_time_of_appointment is not null and ${between(sql`bt.start_time_of_appointment`)}
          and ${bill} and ${line} and ${people}
        order by bt.start_time_of_appointment, bt.id limit ${limit}`),
      run(sql`${SELECT} from lab_bills b
        cross join lateral (select * from lab_bill_tests bt where bt.bill_id = b.id
          and bt.start_time_of_appointment is null) bt ${PEOPLE}
        where ${between(sql`b.bill_date`)} and ${bill} and ${line} and ${people}
        order by b.bill_date, bt.id limit ${limit}`),
    ]);
    raw = [...appointments, ...billed];
  }
  const rows = raw.map((r): ProcedureRow => ({
    id: Number(r.id),
    accessionNumber: r.accession_number,
    testName: r.test_name,
    labModality: r.lab_modality,
    studyInstanceUid: r.study_instance_uid,
    start: ms(r.start_ms),
    end: ms(r.end_ms),
    billDate: ms(r.bill_ms) as Date,
    patientName: r.patient_name,
    uhidNumber: r.uhid_number,
    birthDate: r.birth_date,
    gender: r.gender,
    doctorName: r.doctor_name,
  }));
  if (!range) return rows;
  const at = (row: ProcedureRow) => (row.start ?? row.billDate).getTime();
  return rows.sort((a, b) => at(a) - at(b) || a.id - b.id).slice(0, limit);
}

/** The value of one return key of a procedure (top level), or undefined when we hold none. */
function topLevelValue(row: ProcedureRow, tag: string): DicomJsonElement | undefined {
  switch (tag) {
    case MWL_TAG.patientName:
      return personName(row.patientName);
    case MWL_TAG.patientId:
      return textAttr('LO', row.uhidNumber);
    case MWL_TAG.patientBirthDate:
      return textAttr('DA', row.birthDate ?? '');
    case MWL_TAG.patientSex:
      return textAttr('CS', row.gender);
    case MWL_TAG.accessionNumber:
      return textAttr('SH', row.accessionNumber);
    case MWL_TAG.referringPhysicianName:
      return personName(row.doctorName);
    case MWL_TAG.requestedProcedureDescription:
      return textAttr('LO', row.testName);
    case MWL_TAG.requestedProcedureId:
      return textAttr('SH', row.accessionNumber);
    case MWL_TAG.studyInstanceUid:
      return textAttr('UI', row.studyInstanceUid);
    default:
      return undefined;
  }
}

/** A step's start and end as DICOM DA/TM, worked out once per procedure. */
interface StepTimes {
  start: { da: string; tm: string };
  end: { da: string; tm: string } | null;
}

function stepValue(
  row: ProcedureRow,
  tag: string,
  station: string,
  times: StepTimes,
): DicomJsonElement | undefined {
  const { start, end } = times;
  switch (tag) {
    case MWL_TAG.modality:
      return textAttr('CS', row.labModality);
    case MWL_TAG.scheduledStationAeTitle:
      return textAttr('AE', station);
    case MWL_TAG.spsStartDate:
      return textAttr('DA', start.da);
    case MWL_TAG.spsStartTime:
      return textAttr('TM', start.tm);
    case MWL_TAG.spsEndDate:
      return textAttr('DA', end?.da ?? '');
    case MWL_TAG.spsEndTime:
      return textAttr('TM', end?.tm ?? '');
    case MWL_TAG.spsDescription:
      return textAttr('LO', row.testName);
    case MWL_TAG.spsId:
      return textAttr('SH', row.accessionNumber);
    default:
      return undefined;
  }
}

/** Only the keys asked, each with our value (empty when we hold none), as the archive's C-FIND does. */
function shapeProcedure(
  row: ProcedureRow,
  identifier: DicomJsonDataset,
  stepKeys: DicomJsonDataset | null,
  station: string,
  timeZone: string,
): DicomJsonDataset {
  const answer: DicomJsonDataset = { [MWL_TAG.specificCharacterSet]: textAttr('CS', 'ISO_IR 192') };
  for (const [tag, element] of Object.entries(identifier)) {
    if (tag === MWL_TAG.specificCharacterSet) continue;
    if (tag === MWL_TAG.scheduledProcedureStepSequence) {
      const item: DicomJsonDataset = {};
      const times: StepTimes = {
        start: wallClockOf(row.start ?? row.billDate, timeZone),
        end: row.end ? wallClockOf(row.end, timeZone) : null,
      };
      for (const [stepTag, stepElement] of Object.entries(stepKeys ?? {}))
        item[stepTag] = stepValue(row, stepTag, station, times) ?? { vr: stepElement.vr };
      answer[tag] = { vr: 'SQ', Value: [item] };
      continue;
    }
    answer[tag] = topLevelValue(row, tag) ?? { vr: element.vr };
  }
  return answer;
}

/**
 * Answers one Modality Worklist C-FIND of the center's station `callingAet`: the matches as PS3.18
 * JSON data sets (at most `maxMatches`), or null when the center is gone.
 */
export async function findScheduledProcedures(
  db: Db,
  input: { centerId: number; callingAet: string; identifier: DicomJsonDataset; maxMatches: number },
): Promise<DicomJsonDataset[] | null> {
  const caller = await loadCaller(db, input.centerId, input.callingAet);
  if (!caller) return null;
  const { identifier } = input;
  const sequence = identifier[MWL_TAG.scheduledProcedureStepSequence];
  const stepItem = (sequence?.Value?.[0] ?? null) as DicomJsonDataset | null;
  const stepKeys = sequence ? (stepItem ?? {}) : null;

  // The station: a procedure of the center is scheduled on every station (AE title) of the center.
  const stationKey = keyValue(stepItem ?? undefined, MWL_TAG.scheduledStationAeTitle);
  if (!caller.aeTitles.some((title) => matchesText(title, stationKey))) return [];
  const station = stationKey && !hasWildcard(stationKey) ? stationKey : caller.callingAet;

  const range = dateRangeOf(keyValue(stepItem ?? undefined, MWL_TAG.spsStartDate), caller.timeZone);
  const rows = await searchProcedures(
    db,
    caller,
    {
      modality: keyValue(stepItem ?? undefined, MWL_TAG.modality),
      patientName: keyValue(identifier, MWL_TAG.patientName),
      patientId: keyValue(identifier, MWL_TAG.patientId),
      accessionNumber: keyValue(identifier, MWL_TAG.accessionNumber),
    },
    range,
    input.maxMatches,
  );
  return rows.map((row) => shapeProcedure(row, identifier, stepKeys, station, caller.timeZone));
}

/**
 * The worklist's C-FIND answer for the port's SCP: the calling AE title picks the center (as for
 * C-STORE); a bad key value is 0xC000 naming it.
 */
export async function answerWorklistFind(
  db: Db,
  centerOf: (aeTitle: string) => Promise<number | null>,
  query: FindQuery,
  maxMatches: number,
): Promise<FindAnswer> {
  const centerId = await centerOf(query.callingAet);
  const matches =
    centerId === null
      ? null
      : await findScheduledProcedures(db, {
          centerId,
          callingAet: query.callingAet,
          identifier: query.identifier,
          maxMatches,
        }).catch((error: unknown) => {
          if (error instanceof WorklistQueryError) return error;
          throw error;
        });
  if (matches === null)
    return { status: DimseStatus.NotAuthorized, errorComment: 'Unknown calling AE title' };
  if (matches instanceof WorklistQueryError)
    return { status: FindStatus.UnableToProcess, errorComment: matches.message };
  return { matches };
}
