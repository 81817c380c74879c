import { formPersonName } from '@radflow/core';
import { createCharsetDecoder } from '@radflow/dicom/charset';
import dicomParser from 'dicom-parser';
import { zipEntryHeads } from './zip-entries';

/**
 * The DICOM headers of the files a clerk attaches to Create Study (issue 21 §4), read in the
 * browser so the form fills itself and a folder of several studies shows them. Loaded lazily
 * (CreateStudyDialog imports it when files are attached): the parser stays out of the login and
 * list bundle. Parsing stops before the pixel data; names decode with the archive's charset rules.
 */

/** What one study's files say, as the Create Study form would take it. */
export interface THeaderStudy {
  studyInstanceUid: string;
  patientName: string;
  patientId: string;
  patientAge: string;
  /** M, F, O or '' */
  patientSex: string;
  modality: string;
  studyDescription: string;
  referringPhysicianName: string;
  /** The attached files holding it (a zip once, however many of its entries are of this study). */
  files: File[];
  /** Its DICOM files: loose ones, and the entries of zips. */
  fileCount: number;
}

export interface THeaderReading {
  studies: THeaderStudy[];
  /** Files (and zips with no readable DICOM entry) whose header could not be read here: the server reads them on upload. */
  unread: File[];
}

/** The header of a usual file fits in this; a longer one is read whole. */
const HEAD_BYTES = 256 * 1024;
const PIXEL_DATA = 'x7fe00010';

function parse(bytes: Uint8Array): dicomParser.DataSet {
  return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
}

const isZip = (file: File) => /\.zip$/i.test(file.name) || /zip/.test(file.type);

function parseHead(bytes: Uint8Array): dicomParser.DataSet | null {
  try {
    return parse(bytes);
  } catch {
    return null;
  }
}

async function readHeader(file: File): Promise<dicomParser.DataSet | null> {
  try {
    return parse(new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer()));
  } catch {
    if (file.size <= HEAD_BYTES) return null;
    try {
      return parse(new Uint8Array(await file.arrayBuffer()));
    } catch {
      return null;
    }
  }
}

function fieldsOf(data: dicomParser.DataSet) {
  const charsets = data.string('x00080005')?.split('\\');
  const decoder = createCharsetDecoder(charsets);
  const text = (tag: string, isPersonName = false) => {
    const element = data.elements[tag];
    if (!element || element.length === 0) return '';
    const bytes = new Uint8Array(
      data.byteArray.buffer,
      data.byteArray.byteOffset + element.dataOffset,
      element.length,
    );
    return decoder
      .decode(bytes, isPersonName)
      .replace(/[\0\s]+$/, '')
      .trim();
  };
  const sex = text('x00100040').toUpperCase();
  return {
    studyInstanceUid: data.string('x0020000d')?.trim() ?? '',
    patientName: formPersonName(text('x00100010', true)),
    patientId: text('x00100020'),
    patientAge: text('x00101010'),
    patientSex: sex === 'M' || sex === 'F' || sex === 'O' ? sex : '',
    modality: text('x00080060'),
    studyDescription: text('x00081030'),
    referringPhysicianName: formPersonName(text('x00080090', true)),
  };
}

type TFields = ReturnType<typeof fieldsOf>;

/** The studies of a zip's entries, with how many entries each has. */
async function studiesInZip(file: File): Promise<Array<{ fields: TFields; count: number }>> {
  const found = new Map<string, { fields: TFields; count: number }>();
  for await (const entry of zipEntryHeads(file, HEAD_BYTES)) {
    const data = parseHead(entry.head);
    const fields = data ? fieldsOf(data) : null;
    if (!fields?.studyInstanceUid) continue;
    const study = found.get(fields.studyInstanceUid);
    if (study) {
      study.count++;
      fillEmpty(study.fields, fields);
    } else found.set(fields.studyInstanceUid, { fields, count: 1 });
  }
  return [...found.values()];
}

/** A value the first file left empty is taken from the next one that has it. */
function fillEmpty(into: TFields, from: TFields) {
  for (const key of Object.keys(from) as Array<keyof TFields>)
    if (!into[key] && from[key]) into[key] = from[key];
}

/**
 * Groups the files by study, in the order their studies first appear. A zip counts its entries:
 * one zip may hold one study, part of one, or several.
 */
export async function readHeaders(files: readonly File[]): Promise<THeaderReading> {
  const byUid = new Map<string, THeaderStudy>();
  const unread: File[] = [];
  const add = (fields: TFields, file: File, count: number) => {
    const study = byUid.get(fields.studyInstanceUid);
    if (!study) {
      byUid.set(fields.studyInstanceUid, { ...fields, files: [file], fileCount: count });
      return;
    }
    if (!study.files.includes(file)) study.files.push(file);
    study.fileCount += count;
    fillEmpty(study, fields);
  };
  for (const file of files) {
    if (isZip(file)) {
      const found = await studiesInZip(file);
      if (found.length === 0) unread.push(file);
      for (const { fields, count } of found) add(fields, file, count);
      continue;
    }
    const data = await readHeader(file);
    const fields = data ? fieldsOf(data) : null;
    if (fields?.studyInstanceUid) add(fields, file, 1);
    else unread.push(file);
  }
  return { studies: [...byUid.values()], unread };
}
