import { formPersonName } from '@radflow/core';
import { createCharsetDecoder } from '@radflow/dicom/charset';
import dicomParser from 'dicom-parser';

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
  files: File[];
}

export interface THeaderReading {
  studies: THeaderStudy[];
  /** Zips and files whose header could not be read here: the server reads them on upload. */
  unread: File[];
}

/** The header of a usual file fits in this; a longer one is read whole. */
const HEAD_BYTES = 256 * 1024;
const PIXEL_DATA = 'x7fe00010';

function parse(bytes: Uint8Array): dicomParser.DataSet {
  return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
}

async function readHeader(file: File): Promise<dicomParser.DataSet | null> {
  if (/\.zip$/i.test(file.name)) return null;
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

/** Groups the files by study, in the order their studies first appear. */
export async function readHeaders(files: readonly File[]): Promise<THeaderReading> {
  const byUid = new Map<string, THeaderStudy>();
  const unread: File[] = [];
  for (const file of files) {
    const data = await readHeader(file);
    const fields = data ? fieldsOf(data) : null;
    if (!fields?.studyInstanceUid) {
      unread.push(file);
      continue;
    }
    const study = byUid.get(fields.studyInstanceUid);
    if (study) {
      study.files.push(file);
      // A value the first file left empty is taken from the next one that has it.
      for (const key of Object.keys(fields) as Array<keyof typeof fields>)
        if (!study[key] && fields[key]) study[key] = fields[key];
    } else byUid.set(fields.studyInstanceUid, { ...fields, files: [file] });
  }
  return { studies: [...byUid.values()], unread };
}
