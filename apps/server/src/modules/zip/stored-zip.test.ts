import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { StoredZipWriter } from './stored-zip.js';

interface TReadEntry {
  name: string;
  crc32: number;
  method: number;
  date: Date;
  data: Buffer;
}

/** Every entry of a zip as yauzl (the reader of the archive tests, ZIP64-aware) sees it. */
function readZip(buffer: Buffer): Promise<TReadEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: TReadEntry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              crc32: entry.crc32,
              method: entry.compressionMethod,
              date: entry.getLastModDate({ forceDosFormat: true, timezone: 'UTC' }),
              data: Buffer.concat(chunks),
            });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('StoredZipWriter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'radflow-stored-zip-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function writeZip(
    fill: (zip: StoredZipWriter) => Promise<void>,
    opts: { zip64?: boolean } = {},
  ): Promise<Buffer> {
    const file = path.join(dir, 'out.zip');
    const handle = await open(file, 'w');
    try {
      const zip = new StoredZipWriter(handle, opts);
      await fill(zip);
      await zip.finish();
    } finally {
      await handle.close();
    }
    return readFile(file);
  }

  const date = new Date(Date.UTC(2026, 10, 21, 13, 45, 30));
  const big = Buffer.alloc(3 * 2 ** 20 + 7, 0x5a);

  for (const zip64 of [false, true]) {
    it(`writes stored entries that read back intact${zip64 ? ' (ZIP64 records)' : ''}`, async () => {
      const buffer = await writeZip(
        async (zip) => {
          // "123456789" has the CRC-32 check value 0xCBF43926 (the standard's test vector).
          await zip.addBuffer('Иванов Иван_20240101/1_Серия/1.dcm', Buffer.from('123456789'), date);
          await zip.addStream(
            'Study/2_CT/2.dcm',
            () => Readable.from([big.subarray(0, 5), big.subarray(5)]),
            date,
          );
          await zip.addBuffer('Study/README.txt', Buffer.alloc(0), date);
        },
        { zip64 },
      );
      const entries = await readZip(buffer);
      expect(entries.map((e) => e.name)).toEqual([
        'Иванов Иван_20240101/1_Серия/1.dcm',
        'Study/2_CT/2.dcm',
        'Study/README.txt',
      ]);
      expect(entries[0]!.crc32).toBe(0xcbf43926);
      expect(entries[0]!.data.toString()).toBe('123456789');
      expect(entries[1]!.data.equals(big)).toBe(true);
      expect(entries[2]!.data.length).toBe(0);
      expect(entries.every((e) => e.method === 0)).toBe(true);
      expect(entries[0]!.date.toISOString()).toBe('2026-11-21T13:45:30.000Z');
    });
  }

  it('refuses a streamed file that changed between its two reads', async () => {
    let reads = 0;
    const changing = () => Readable.from([Buffer.from(reads++ === 0 ? 'first' : 'other')]);
    await expect(writeZip((zip) => zip.addStream('a.dcm', changing, date))).rejects.toThrow(
      'a.dcm changed while it was zipped',
    );
  });
});
