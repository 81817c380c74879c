import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TQueuedFile } from '../queue/queue.js';
import { BatchReader } from './batch-reader.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'radflow-batch-reader-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function spoolFile(name: string, bytes: Buffer): Promise<TQueuedFile> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return {
    key: name,
    path,
    sopInstanceUid: `1.2.3.${name}`,
    studyInstanceUid: '1.2.3',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
  };
}

describe('the upload batch reader', () => {
  it("gives each file's bytes, and sets aside files that changed, shrank or vanished", async () => {
    const a = randomBytes(1000);
    const b = randomBytes(3000);
    const intactA = await spoolFile('1', a);
    const intactB = await spoolFile('2', b);
    const changed = await spoolFile('3', randomBytes(500));
    await writeFile(changed.path, randomBytes(500));
    const shrunk = await spoolFile('4', randomBytes(500));
    await writeFile(shrunk.path, randomBytes(499));
    const vanished = await spoolFile('5', randomBytes(10));
    await rm(vanished.path);

    const read = await new BatchReader(1 << 20).read([intactA, changed, shrunk, vanished, intactB]);

    expect(
      read.intact.map(({ file, bytes }) => [file.key, Buffer.compare(bytes, file.key === '1' ? a : b)]),
    ).toEqual([
      ['1', 0],
      ['2', 0],
    ]);
    expect(read.damaged.map((f) => f.key)).toEqual(['3', '4']);
    expect(read.unreadable.map(({ file, reason }) => [file.key, /ENOENT/.test(reason)])).toEqual([
      ['5', true],
    ]);
  });

  it('reads every batch of its size into one kept buffer, and a larger one into its own', async () => {
    const reader = new BatchReader(4096);
    const first = await reader.read([await spoolFile('1', randomBytes(4000))]);
    const second = await reader.read([
      await spoolFile('2', randomBytes(1000)),
      await spoolFile('3', randomBytes(2000)),
    ]);
    expect(second.intact[0]!.bytes.buffer).toBe(first.intact[0]!.bytes.buffer);
    expect(second.intact.map((p) => p.bytes.byteOffset)).toEqual([0, 1000]);

    const large = await reader.read([await spoolFile('4', randomBytes(5000))]);
    expect(large.intact[0]!.bytes.buffer).not.toBe(first.intact[0]!.bytes.buffer);
    const after = await reader.read([await spoolFile('5', randomBytes(10))]);
    expect(after.intact[0]!.bytes.buffer).toBe(first.intact[0]!.bytes.buffer);
  });
});
