// Node's File: it has the browser's `stream()`, which jsdom's lacks (DecompressionStream is Node's).
import { File as NodeFile } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readHeaders } from './read-headers';

/*
 * Create Study reads the headers inside the zips a clerk attaches (issue 21 §4), as it reads loose
 * files: the form fills from a zip of one study, and a zip of several says so.
 */

function fixture(path: string): Uint8Array {
  let root = process.cwd();
  while (!existsSync(join(root, 'packages/dicom/test-fixtures'))) root = dirname(root);
  return new Uint8Array(readFileSync(join(root, 'packages/dicom/test-fixtures', path)));
}

const LIVER = ['ct/study_liver/ct_liver_01.dcm', 'ct/study_liver/ct_liver_02.dcm'];
const LIVER_UID = '1.2.392.200103.20080913.113635.0.2009.6.22.21.43.10.22941.1';
const MR = 'mr/mr_small_64x64_explicit_le.dcm';

interface TEntry {
  name: string;
  data: Uint8Array;
  method?: 0 | 8;
}

/** A zip as archivers write it (PKWARE APPNOTE 4.3); `zip64` writes the ZIP64 records and extras. */
function buildZip(entries: TEntry[], { zip64 = false } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const le = (bytes: number, value: number | bigint) => {
    const out = new Uint8Array(bytes);
    const view = new DataView(out.buffer);
    if (bytes === 2) view.setUint16(0, Number(value), true);
    else if (bytes === 4) view.setUint32(0, Number(value), true);
    else view.setBigUint64(0, BigInt(value), true);
    return out;
  };
  const cat = (...chunks: Uint8Array[]) => {
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  };
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const method = entry.method ?? 8;
    const body = method === 8 ? new Uint8Array(deflateRawSync(entry.data)) : entry.data;
    const crc = crc32(entry.data);
    const local = cat(
      le(4, 0x04034b50),
      le(2, 20),
      le(2, 0),
      le(2, method),
      le(4, 0),
      le(4, crc),
      le(4, body.length),
      le(4, entry.data.length),
      le(2, name.length),
      le(2, 0),
      name,
    );
    const extra = zip64
      ? cat(le(2, 1), le(2, 24), le(8, entry.data.length), le(8, body.length), le(8, offset))
      : new Uint8Array();
    central.push(
      cat(
        le(4, 0x02014b50),
        le(2, 45),
        le(2, 45),
        le(2, 0),
        le(2, method),
        le(4, 0),
        le(4, crc),
        le(4, zip64 ? 0xffffffff : body.length),
        le(4, zip64 ? 0xffffffff : entry.data.length),
        le(2, name.length),
        le(2, extra.length),
        le(2, 0),
        le(2, 0),
        le(2, 0),
        le(4, 0),
        le(4, zip64 ? 0xffffffff : offset),
        name,
        extra,
      ),
    );
    parts.push(local, body);
    offset += local.length + body.length;
  }
  const directory = cat(...central);
  const tail: Uint8Array[] = [];
  if (zip64) {
    const recordAt = offset + directory.length;
    tail.push(
      cat(
        le(4, 0x06064b50),
        le(8, 44),
        le(2, 45),
        le(2, 45),
        le(4, 0),
        le(4, 0),
        le(8, entries.length),
        le(8, entries.length),
        le(8, directory.length),
        le(8, offset),
      ),
      cat(le(4, 0x07064b50), le(4, 0), le(8, recordAt), le(4, 1)),
    );
  }
  tail.push(
    cat(
      le(4, 0x06054b50),
      le(2, 0),
      le(2, 0),
      le(2, zip64 ? 0xffff : entries.length),
      le(2, zip64 ? 0xffff : entries.length),
      le(4, zip64 ? 0xffffffff : directory.length),
      le(4, zip64 ? 0xffffffff : offset),
      le(2, 0),
    ),
  );
  return cat(...parts, directory, ...tail);
}

const file = (bytes: Uint8Array, name: string, type = '') =>
  new NodeFile([bytes], name, { type }) as unknown as File;
const zipFile = (name: string, bytes: Uint8Array) => file(bytes, name, 'application/zip');

describe('Create Study reads the headers inside zips', () => {
  it('a zip of one study (deflated and stored entries, a folder, macOS metadata) fills like its files would', async () => {
    const zip = zipFile(
      'liver.zip',
      buildZip([
        { name: 'liver/', data: new Uint8Array(), method: 0 },
        { name: 'liver/1.dcm', data: fixture(LIVER[0]!) },
        { name: 'liver/2.dcm', data: fixture(LIVER[1]!), method: 0 },
        { name: '__MACOSX/liver/._1.dcm', data: new Uint8Array(64) },
      ]),
    );
    const { studies, unread } = await readHeaders([zip]);
    expect(unread).toEqual([]);
    expect(studies).toHaveLength(1);
    expect(studies[0]).toMatchObject({
      studyInstanceUid: LIVER_UID,
      patientName: 'JANCT000',
      patientId: '99000',
      modality: 'CT',
      fileCount: 2,
    });
    expect(studies[0]!.files).toEqual([zip]);
  });

  it('a zip of two studies and a loose file of one of them: two studies, the zip in both, the entries counted', async () => {
    const zip = zipFile(
      'both.zip',
      buildZip([
        { name: 'a.dcm', data: fixture(LIVER[0]!) },
        { name: 'b.dcm', data: fixture(MR) },
      ]),
    );
    const loose = file(fixture(LIVER[1]!), '2.dcm');
    const { studies } = await readHeaders([zip, loose]);
    expect(studies.map((s) => [s.modality, s.fileCount, s.files.map((f) => f.name)])).toEqual([
      ['CT', 2, ['both.zip', '2.dcm']],
      ['MR', 1, ['both.zip']],
    ]);
  });

  it('reads a ZIP64 archive', async () => {
    const zip = zipFile('big.zip', buildZip([{ name: '1.dcm', data: fixture(LIVER[0]!) }], { zip64: true }));
    const { studies } = await readHeaders([zip]);
    expect(studies.map((s) => s.studyInstanceUid)).toEqual([LIVER_UID]);
  });

  it('a zip with no DICOM inside, a damaged zip and a file that only looks like a zip are left to the server', async () => {
    const text = zipFile(
      'notes.zip',
      buildZip([{ name: 'readme.txt', data: new TextEncoder().encode('hello') }]),
    );
    const whole = buildZip([{ name: '1.dcm', data: fixture(LIVER[0]!) }]);
    const cut = zipFile('cut.zip', whole.subarray(0, whole.length - 30));
    const fake = zipFile('fake.zip', fixture(MR).subarray(0, 4000));
    const { studies, unread } = await readHeaders([text, cut, fake]);
    expect(studies).toEqual([]);
    expect(unread.map((f) => f.name)).toEqual(['notes.zip', 'cut.zip', 'fake.zip']);
  });
});
