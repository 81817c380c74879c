// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- dcmjs ships no types; programs importing this package need these declarations too
/// <reference path="./vendor.d.ts" />
/**
 * De-identification: the PS3.15 Annex E Basic Application Level Confidentiality Profile
 * (Table E.1-1) as ARCHITECTURE §4 applies it — dcmjs's cleanTags plus our own recursive pass
 * that drops private tags, empties person names, removes or blanks the identifying attributes at
 * every depth, and remaps every instance UID consistently with HMAC(secret, uid) into `2.25.<n>`
 * (PS3.5 §B.2), the file meta included.
 */
import { createHmac } from 'node:crypto';
import dcmjs, { type DcmjsDenaturalizedDataset, type DcmjsElement } from 'dcmjs';
import { DicomParseError } from './errors.js';
import { toDicomJson, type DicomJsonDataset } from './dicom-json.js';
import { createFileMetaHeader } from './file-meta.js';
import { parseInstance } from './parse.js';
import { TRANSFER_SYNTAX } from './transfer-syntax.js';

export interface AnonymizeOptions {
  /** Key of the UID and patient pseudonym HMAC: the same secret maps the same UID to the same new UID. */
  readonly secret: string | Uint8Array;
  /** Written to Patient ID (0010,0020); default a pseudonym HMAC(secret, original Patient ID). */
  readonly patientId?: string;
  /** Written to Deidentification Method (0012,0063). */
  readonly deidentificationMethod?: string;
}

type Action = 'X' | 'Z';

/** PS3.15 Table E.1-1 attributes the basic profile removes (X) or empties (Z), by tag. */
const PROFILE_ACTIONS: ReadonlyMap<string, Action> = new Map<string, Action>([
  // General Study / Patient / Series identification
  ['00080020', 'Z'], // Study Date
  ['00080021', 'X'], // Series Date
  ['00080022', 'X'], // Acquisition Date
  ['00080023', 'Z'], // Content Date
  ['00080024', 'X'], // Overlay Date
  ['00080025', 'X'], // Curve Date
  ['0008002A', 'X'], // Acquisition DateTime
  ['00080030', 'Z'], // Study Time
  ['00080031', 'X'], // Series Time
  ['00080032', 'X'], // Acquisition Time
  ['00080033', 'Z'], // Content Time
  ['00080034', 'X'], // Overlay Time
  ['00080035', 'X'], // Curve Time
  ['00080050', 'Z'], // Accession Number
  ['00080080', 'X'], // Institution Name
  ['00080081', 'X'], // Institution Address
  ['00080082', 'X'], // Institution Code Sequence
  ['00080090', 'Z'], // Referring Physician's Name
  ['00080092', 'X'], // Referring Physician's Address
  ['00080094', 'X'], // Referring Physician's Telephone Numbers
  ['00080096', 'X'], // Referring Physician Identification Sequence
  ['00080201', 'X'], // Timezone Offset From UTC
  ['00081010', 'X'], // Station Name
  ['00081030', 'X'], // Study Description
  ['0008103E', 'X'], // Series Description
  ['00081040', 'X'], // Institutional Department Name
  ['00081048', 'X'], // Physician(s) of Record
  ['00081049', 'X'], // Physician(s) of Record Identification Sequence
  ['00081050', 'X'], // Performing Physicians' Name
  ['00081052', 'X'], // Performing Physician Identification Sequence
  ['00081060', 'X'], // Name of Physician(s) Reading Study
  ['00081062', 'X'], // Physician(s) Reading Study Identification Sequence
  ['00081070', 'X'], // Operators' Name
  ['00081072', 'X'], // Operator Identification Sequence
  ['00081080', 'X'], // Admitting Diagnoses Description
  ['00081084', 'X'], // Admitting Diagnoses Code Sequence
  ['00081110', 'X'], // Referenced Study Sequence
  ['00081111', 'X'], // Referenced Performed Procedure Step Sequence
  ['00081120', 'X'], // Referenced Patient Sequence
  ['00082111', 'X'], // Derivation Description
  ['00100010', 'Z'], // Patient's Name
  ['00100021', 'X'], // Issuer of Patient ID
  ['00100030', 'Z'], // Patient's Birth Date
  ['00100032', 'X'], // Patient's Birth Time
  ['00100040', 'Z'], // Patient's Sex
  ['00100050', 'X'], // Patient's Insurance Plan Code Sequence
  ['00100101', 'X'], // Patient's Primary Language Code Sequence
  ['00100102', 'X'], // Patient's Primary Language Modifier Code Sequence
  ['00101000', 'X'], // Other Patient IDs
  ['00101001', 'X'], // Other Patient Names
  ['00101002', 'X'], // Other Patient IDs Sequence
  ['00101005', 'X'], // Patient's Birth Name
  ['00101010', 'X'], // Patient's Age
  ['00101020', 'X'], // Patient's Size
  ['00101030', 'X'], // Patient's Weight
  ['00101040', 'X'], // Patient's Address
  ['00101050', 'X'], // Insurance Plan Identification
  ['00101060', 'X'], // Patient's Mother's Birth Name
  ['00101080', 'X'], // Military Rank
  ['00101081', 'X'], // Branch of Service
  ['00101090', 'X'], // Medical Record Locator
  ['00102000', 'X'], // Medical Alerts
  ['00102110', 'X'], // Allergies
  ['00102150', 'X'], // Country of Residence
  ['00102152', 'X'], // Region of Residence
  ['00102154', 'X'], // Patient's Telephone Numbers
  ['00102160', 'X'], // Ethnic Group
  ['00102180', 'X'], // Occupation
  ['001021A0', 'X'], // Smoking Status
  ['001021B0', 'X'], // Additional Patient History
  ['001021C0', 'X'], // Pregnancy Status
  ['001021D0', 'X'], // Last Menstrual Date
  ['001021F0', 'X'], // Patient's Religious Preference
  ['00102203', 'X'], // Patient's Sex Neutered
  ['00102297', 'X'], // Responsible Person
  ['00102299', 'X'], // Responsible Organization
  ['00104000', 'X'], // Patient Comments
  // Equipment, acquisition
  ['00181000', 'X'], // Device Serial Number
  ['00181004', 'X'], // Plate ID
  ['00181005', 'X'], // Generator ID
  ['00181007', 'X'], // Cassette ID
  ['00181008', 'X'], // Gantry ID
  ['00181030', 'X'], // Protocol Name
  ['00181400', 'X'], // Acquisition Device Processing Description
  ['00184000', 'X'], // Acquisition Comments
  ['0018700A', 'X'], // Detector ID
  ['0018A003', 'X'], // Contribution Description
  ['00200010', 'Z'], // Study ID
  ['00204000', 'X'], // Image Comments
  // Requests, visits, procedure steps
  ['00321032', 'X'], // Requesting Physician
  ['00321033', 'X'], // Requesting Service
  ['00321060', 'X'], // Requested Procedure Description
  ['00324000', 'X'], // Study Comments
  ['00380010', 'X'], // Admission ID
  ['00380300', 'X'], // Current Patient Location
  ['00380400', 'X'], // Patient's Institution Residence
  ['00384000', 'X'], // Visit Comments
  ['00400006', 'X'], // Scheduled Performing Physician's Name
  ['00400241', 'X'], // Performed Station AE Title
  ['00400242', 'X'], // Performed Station Name
  ['00400243', 'X'], // Performed Location
  ['00400244', 'X'], // Performed Procedure Step Start Date
  ['00400245', 'X'], // Performed Procedure Step Start Time
  ['00400250', 'X'], // Performed Procedure Step End Date
  ['00400251', 'X'], // Performed Procedure Step End Time
  ['00400253', 'X'], // Performed Procedure Step ID
  ['00400254', 'X'], // Performed Procedure Step Description
  ['00400275', 'X'], // Request Attributes Sequence
  ['00401001', 'X'], // Requested Procedure ID
  ['00402016', 'Z'], // Placer Order Number / Imaging Service Request
  ['00402017', 'Z'], // Filler Order Number / Imaging Service Request
  ['00402400', 'X'], // Imaging Service Request Comments
  ['0040A073', 'X'], // Verifying Observer Sequence
  ['0040A123', 'X'], // Person Name
  ['0040A730', 'X'], // Content Sequence
  ['00880140', 'X'], // Storage Media File-set UID
  ['4008010C', 'X'], // Interpretation Author
  ['FFFAFFFA', 'X'], // Digital Signatures Sequence
  ['FFFCFFFC', 'X'], // Data Set Trailing Padding
]);

/** UI attributes that name a class, syntax or coding scheme, not an instance: never remapped. */
const NON_INSTANCE_UIDS: ReadonlySet<string> = new Set([
  '00020002', // Media Storage SOP Class UID
  '00020010', // Transfer Syntax UID
  '00020012', // Implementation Class UID
  '00080016', // SOP Class UID
  '0008001A', // Related General SOP Class UID
  '0008001B', // Original Specialized SOP Class UID
  '00080062', // SOP Classes in Study
  '0008010C', // Coding Scheme UID
  '0008010D', // Context Group Extension Creator UID
  '00080118', // Mapping Resource UID
  '00081150', // Referenced SOP Class UID
  '0008115A', // SOP Classes Supported
  '00041510', // Referenced SOP Class UID in File
  '00041512', // Referenced Transfer Syntax UID in File
  '00083002', // Available Transfer Syntax UID
  '04000010', // MAC Calculation Transfer Syntax UID
  '04000510', // Encrypted Content Transfer Syntax UID
]);

const isPrivateTag = (tag: string): boolean => parseInt(tag.slice(0, 4), 16) % 2 === 1;
const isRepeatingGroupToRemove = (tag: string): boolean =>
  // Curve data (50xx,xxxx) and overlay data / comments (60xx,3000), (60xx,4000): E.1-1 X.
  /^50[0-9A-F]{2}/.test(tag) || /^60[0-9A-F]{2}(3000|4000)$/.test(tag);

function hmacHex(secret: string | Uint8Array, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/**
 * The UID that `uid` becomes under `secret`: `2.25.` followed by the decimal of the first 128 bits
 * of HMAC-SHA256(secret, uid) — the UUID-derived form of PS3.5 §B.2, at most 44 characters.
 */
export function remapUid(uid: string, secret: string | Uint8Array): string {
  return `2.25.${BigInt(`0x${hmacHex(secret, `uid:${uid}`).slice(0, 32)}`).toString()}`;
}

function remapUidValues(element: DcmjsElement, secret: string | Uint8Array): void {
  if (!Array.isArray(element.Value)) return;
  element.Value = element.Value.map((value) => {
    if (typeof value !== 'string') return value;
    const uid = value.replace(/\0/g, '').trim();
    return uid === '' || uid.startsWith('1.2.840.10008.') ? uid : remapUid(uid, secret);
  });
}

function cleanDataset(dataset: DcmjsDenaturalizedDataset, secret: string | Uint8Array): void {
  for (const tag of Object.keys(dataset)) {
    const upper = tag.toUpperCase();
    const element = dataset[tag];
    if (!element) continue;
    if (isPrivateTag(upper) || isRepeatingGroupToRemove(upper)) {
      delete dataset[tag];
      continue;
    }
    const action = PROFILE_ACTIONS.get(upper);
    if (action === 'X') {
      delete dataset[tag];
      continue;
    }
    if (action === 'Z' || element.vr === 'PN') {
      dataset[tag] = { vr: element.vr, Value: [] };
      continue;
    }
    if (element.vr === 'UI' && !NON_INSTANCE_UIDS.has(upper)) {
      remapUidValues(element, secret);
      continue;
    }
    if (element.vr === 'SQ' && Array.isArray(element.Value)) {
      for (const item of element.Value) {
        if (item && typeof item === 'object') cleanDataset(item as DcmjsDenaturalizedDataset, secret);
      }
    }
  }
}

const DEFAULT_METHOD = 'Radflow: PS3.15 Basic Application Level Confidentiality Profile';

/**
 * De-identifies a dcmjs denaturalized data set (keys are 8-hex tags, as `DicomMessage.readFile`
 * returns in `.dict`) in place and returns it: PS3.15 Table E.1-1 basic profile, private tags
 * dropped, every person name emptied, instance UIDs remapped (see {@link remapUid}), Patient
 * Identity Removed (0012,0062) YES and De-identification Method (0012,0063) set.
 */
export function anonymizeDataset(
  dataset: DcmjsDenaturalizedDataset,
  options: AnonymizeOptions,
): DcmjsDenaturalizedDataset {
  const originalPatientId = dataset['00100020']?.Value?.[0];
  // dcmjs's list (CTP-derived) first, with names emptied rather than set to "ANON^PATIENT"…
  dcmjs.anonymizer.cleanTags(dataset, {});
  // …then our recursive pass, which also covers what cleanTags leaves (privates, nested values, UIDs).
  cleanDataset(dataset, options.secret);
  const pseudonym =
    options.patientId ??
    (typeof originalPatientId === 'string' && originalPatientId.trim() !== ''
      ? `ANON-${hmacHex(options.secret, `pid:${originalPatientId.trim()}`).slice(0, 16).toUpperCase()}`
      : 'ANON');
  dataset['00100020'] = { vr: 'LO', Value: [pseudonym] };
  dataset['00120062'] = { vr: 'CS', Value: ['YES'] };
  dataset['00120063'] = { vr: 'LO', Value: [options.deidentificationMethod ?? DEFAULT_METHOD] };
  dataset['00120064'] = {
    vr: 'SQ',
    Value: [
      {
        '00080100': { vr: 'SH', Value: ['113100'] },
        '00080102': { vr: 'SH', Value: ['DCM'] },
        '00080104': { vr: 'LO', Value: ['Basic Application Confidentiality Profile'] },
      },
    ],
  };
  dataset['00280303'] = { vr: 'CS', Value: ['REMOVED'] }; // Longitudinal Temporal Information Modified
  return dataset;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * De-identifies a DICOM instance and returns new Part 10 bytes (PS3.10 §7) that parse again.
 * A bare data set without file meta gets one. A deflated instance is written as Explicit VR
 * Little Endian (dcmjs writes no deflate); every other syntax is kept, pixel data untouched.
 */
export function anonymizePart10(
  bytes: Uint8Array,
  secret: string | Uint8Array,
  options: Omit<AnonymizeOptions, 'secret'> = {},
): Uint8Array {
  const parsed = parseInstance(bytes);
  const part10 = parsed.hasPreamble
    ? bytes
    : concatBytes(
        createFileMetaHeader({
          sopClassUid: parsed.sopClassUid,
          sopInstanceUid: parsed.sopInstanceUid,
          transferSyntaxUid: parsed.transferSyntaxUid,
        }),
        bytes.subarray(parsed.datasetOffset),
      );
  const dicomDict = quietly(() => {
    try {
      return dcmjs.data.DicomMessage.readFile(toArrayBuffer(part10), { ignoreErrors: true });
    } catch (error) {
      throw new DicomParseError('MALFORMED_DATASET', `The instance cannot be re-encoded: ${String(error)}`, {
        cause: error,
      });
    }
  });
  // dcmjs reads only the first of several character sets (ISO 2022 code extensions) and writes
  // UTF-8: put back the text as our decoder read it, so what the profile keeps is not garbled.
  if (parsed.specificCharacterSet.length > 1) restoreText(dicomDict.dict, toDicomJson(parsed));
  anonymizeDataset(dicomDict.dict, { ...options, secret });
  const meta = dicomDict.meta;
  meta['00020003'] = { vr: 'UI', Value: [remapUid(parsed.sopInstanceUid, secret)] };
  delete meta['00020016']; // Source Application Entity Title
  delete meta['00020100']; // Private Information Creator UID
  delete meta['00020102']; // Private Information
  if (parsed.transferSyntax.isDeflated) {
    meta['00020010'] = { vr: 'UI', Value: [TRANSFER_SYNTAX.explicitVrLittleEndian] };
  }
  return new Uint8Array(quietly(() => dicomDict.write()));
}

const TEXT_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'UC']);

function restoreText(dataset: DcmjsDenaturalizedDataset, json: DicomJsonDataset): void {
  for (const [tag, element] of Object.entries(dataset)) {
    const decoded = json[tag.toUpperCase()];
    if (!decoded?.Value) continue;
    if (TEXT_VRS.has(element.vr)) {
      element.Value = decoded.Value.map((value) => (typeof value === 'string' ? value : ''));
    } else if (element.vr === 'SQ' && Array.isArray(element.Value)) {
      element.Value.forEach((item, index) => {
        const decodedItem = decoded.Value?.[index];
        if (item && typeof item === 'object' && decodedItem && typeof decodedItem === 'object') {
          restoreText(item as DcmjsDenaturalizedDataset, decodedItem as DicomJsonDataset);
        }
      });
    }
  }
}

/** dcmjs logs every oddity it tolerates to the console; keep the server log for our own messages. */
function quietly<T>(run: () => T): T {
  const previous = dcmjs.log.getLevel();
  dcmjs.log.setLevel('silent');
  try {
    return run();
  } finally {
    dcmjs.log.setLevel(previous);
  }
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
