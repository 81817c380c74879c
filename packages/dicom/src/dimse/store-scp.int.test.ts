// The C-STORE/C-ECHO SCP against DCMTK's echoscu and storescu (config-file profile proposing every
// syntax of the corpus) and against our own SCU; all on 127.0.0.1 with TCP_NODELAY=1.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInstance } from '../parse.js';
import {
  datasetBytes,
  expectedSentDataset,
  firstDifference,
  fixturePath,
  readDataset,
  sendableFixtures,
} from './corpus.test-helpers.js';
import { FIXTURES_DIR } from '../test-fixtures.js';
import {
  cEcho,
  cStore,
  DimseError,
  DimseStatus,
  readStoreFileHeader,
  startStoreScp,
  type ReceivedInstance,
  type StoreFileHeader,
  type StoreScp,
} from './index.js';
import { runEchoscu, runStorescu, startStorescp, type RunningPeer } from '../test-support/index.js';

const AET = 'RADFLOW';
const KNOWN = new Set(['MODALITY', 'STORESCU', 'THROWER', 'FULL']);

type Arrival = ReceivedInstance & { readonly keptPath: string };

let scp: StoreScp;
let work: string;
let scpTemp: string;
let storescp: RunningPeer | undefined;
let headers: StoreFileHeader[];
let profilePath: string;
const arrivals: Arrival[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'radflow-scp-test-'));
  scpTemp = join(work, 'incoming');
  await mkdir(scpTemp);
  scp = await startStoreScp({
    aeTitle: AET,
    port: 0,
    tempDir: scpTemp,
    onAssociation: (callingAet) => KNOWN.has(callingAet),
    onInstance: async (instance) => {
      if (instance.callingAet === 'THROWER') throw new Error('index unavailable');
      if (instance.callingAet === 'FULL')
        return { status: DimseStatus.OutOfResources, errorComment: 'Disk full' };
      const keptPath = join(work, `${arrivals.length}.dcm`);
      await rename(instance.filePath!, keptPath);
      arrivals.push({ ...instance, keptPath });
      return undefined;
    },
  });
  headers = await Promise.all(sendableFixtures.map((file) => readStoreFileHeader(fixturePath(file))));
  // The committed profile (dcmtk.test.ts checks it equals buildStorescuProfile for the corpus).
  profilePath = join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg');
});

afterAll(async () => {
  await scp?.close();
  await storescp?.stop();
  await rm(work, { recursive: true, force: true });
});

const peer = (callingAet: string, calledAet = AET) => ({
  host: '127.0.0.1',
  port: scp.port,
  callingAet,
  calledAet,
});

describe('C-ECHO SCP', () => {
  it('answers echoscu', async () => {
    const run = await runEchoscu(peer('MODALITY'));
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('rejects an unknown calling AE title at association (echoscu fails)', async () => {
    const run = await runEchoscu(peer('STRANGER'));
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/Calling AE Title Not Recognized/i);
  });

  it('rejects a wrong called AE title', async () => {
    const run = await runEchoscu(peer('MODALITY', 'NOT-US'));
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/Called AE Title Not Recognized/i);
    await expect(cEcho(peer('MODALITY', 'NOT-US'))).rejects.toMatchObject({
      code: 'ASSOCIATION_REJECTED',
      reject: { result: 1, source: 1, reason: 7 },
    });
  });
});

describe('C-STORE SCP with storescu proposing every syntax of the corpus', () => {
  it('stores every valid file of the corpus in its own transfer syntax, as DCMTK sent it', async () => {
    // What storescu puts on the wire, captured bit-preserving by DCMTK's own storescp.
    storescp = await startStorescp({ aeTitle: 'REFERENCE', extraArgs: ['+B', '+uf'] });
    const files = sendableFixtures.map(fixturePath);
    const reference = await runStorescu({
      ...peer('STORESCU', 'REFERENCE'),
      port: storescp.port,
      files,
      configFile: profilePath,
      extraArgs: ['-nh'],
    });
    // storescp +xa does not take JPEG Lossless process 14 (non-SV1), so storescu fails that one there.
    expect(reference.stderr.match(/Store Failed/g) ?? []).toHaveLength(1);

    const before = arrivals.length;
    const run = await runStorescu({
      ...peer('STORESCU'),
      files,
      configFile: profilePath,
      extraArgs: ['-nh'],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/^E:|Store Failed|Status: [^S]/m);
    const received = arrivals.slice(before);
    expect(received).toHaveLength(files.length);

    // Some corpus files share SOP Instance UID and syntax (fixed copies of quirky files): key → all.
    const wire = new Map<string, Uint8Array[]>();
    const names = await readdir(storescp.dir);
    expect(names).toHaveLength(files.length - 1);
    for (const name of names) {
      const bytes = new Uint8Array(await readFile(join(storescp.dir, name)));
      const parsed = parseInstance(bytes, { requireUids: false });
      const key = `${parsed.sopInstanceUid}|${parsed.transferSyntaxUid}`;
      wire.set(key, [...(wire.get(key) ?? []), datasetBytes(bytes)]);
    }

    let identicalToOriginal = 0;
    for (const [index, header] of headers.entries()) {
      const arrival = received[index]!;
      const path = sendableFixtures[index]!.path;
      expect(arrival.sopInstanceUid, path).toBe(header.sopInstanceUid);
      expect(arrival.sopClassUid, path).toBe(header.sopClassUid);
      expect(arrival.transferSyntaxUid, path).toBe(header.transferSyntaxUid);
      expect(arrival.callingAet).toBe('STORESCU');
      const stored = new Uint8Array(await readFile(arrival.keptPath));
      const parsed = parseInstance(stored);
      expect(parsed.hasPreamble && parsed.hasFileMeta, path).toBe(true);
      expect(parsed.transferSyntaxUid, path).toBe(header.transferSyntaxUid);
      expect(parsed.sopInstanceUid, path).toBe(header.sopInstanceUid);
      const original = readDataset(fixturePath(sendableFixtures[index]!));
      const sent = wire.get(`${header.sopInstanceUid}|${header.transferSyntaxUid}`) ?? [original];
      const matches = sent.some((bytes) => firstDifference(datasetBytes(stored), bytes) === -1);
      expect(matches, `${path}: stored bytes == bytes on the wire`).toBe(true);
      if (firstDifference(datasetBytes(stored), original) === -1) identicalToOriginal++;
    }
    // storescu re-encodes what it reads (drops trailing padding, re-deflates, recalculates group
    // lengths, pads odd values); the files it leaves alone arrive identical to the original.
    expect(identicalToOriginal).toBeGreaterThanOrEqual(30);
  }, 120_000);

  it('stores every valid file byte-for-byte from our SCU (data set == original, incl. deflated and bare files)', async () => {
    const before = arrivals.length;
    const outcome = await cStore({ ...peer('MODALITY'), files: sendableFixtures.map(fixturePath) });
    expect(outcome.failed, JSON.stringify(outcome.results.filter((r) => r.status !== 'SEND'))).toBe(0);
    const received = arrivals.slice(before);
    expect(received).toHaveLength(sendableFixtures.length);
    for (const [index, file] of sendableFixtures.entries()) {
      const arrival = received[index]!;
      const result = outcome.results[index]!;
      expect(arrival.transferSyntaxUid, file.path).toBe(headers[index]!.transferSyntaxUid);
      const stored = new Uint8Array(await readFile(arrival.keptPath));
      expect(parseInstance(stored).sopInstanceUid).toBe(headers[index]!.sopInstanceUid);
      // Only the odd-length quirk goes re-encoded (an odd value cannot travel in even PDVs).
      expect(result.reencoded ?? false, file.path).toBe(
        file.path === 'cr_dx/dx_fujifilm_for_presentation.dcm',
      );
      if (!result.reencoded)
        expect(firstDifference(datasetBytes(stored), expectedSentDataset(fixturePath(file))), file.path).toBe(
          -1,
        );
      const meta = parseInstance(stored).meta!;
      expect(meta.string('x00020016')?.trim()).toBe('MODALITY');
    }
  }, 120_000);
});

describe('C-STORE SCP failures', () => {
  const one = () => [fixturePath(sendableFixtures[0]!)];

  it('answers 0x0110 with the message when onInstance throws, removes the temp file, and stays up', async () => {
    const outcome = await cStore({ ...peer('THROWER'), files: one() });
    expect(outcome.results[0]).toMatchObject({
      status: 'FAILED',
      dimseStatus: DimseStatus.ProcessingFailure,
    });
    expect(outcome.results[0]!.error).toMatch(/index unavailable/);
    expect(await readdir(scpTemp)).toEqual([]);
    const after = await cStore({ ...peer('MODALITY'), files: one() });
    expect(after.results[0]).toMatchObject({ status: 'SEND', dimseStatus: 0 });
    const echo = await runEchoscu(peer('MODALITY'));
    expect(echo.exitCode).toBe(0);
  }, 30_000);

  it('returns the status and comment onInstance decides', async () => {
    const outcome = await cStore({ ...peer('FULL'), files: one() });
    expect(outcome.results[0]).toMatchObject({ status: 'FAILED', dimseStatus: 0xa700 });
    expect(outcome.results[0]!.error).toMatch(/Disk full/);
    expect(await readdir(scpTemp)).toEqual([]);
  }, 30_000);

  it('reports a rejected calling AE to our SCU as a typed error', async () => {
    const error = await cStore({ ...peer('STRANGER'), files: one() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DimseError);
    expect(error).toMatchObject({ code: 'ASSOCIATION_REJECTED', reject: { reason: 3 } });
  }, 30_000);
});

describe('C-STORE SCP receive buffer', () => {
  it('hands small instances over in memory and streams large ones to the file, byte-for-byte either way', async () => {
    const limit = 64 * 1024;
    const dir = await mkdtemp(join(tmpdir(), 'radflow-scp-spill-'));
    const received: Array<{ file: Uint8Array; bytes?: Uint8Array; size: number }> = [];
    const small = await startStoreScp({
      aeTitle: AET,
      port: 0,
      tempDir: dir,
      inMemoryMaxBytes: limit,
      onInstance: async (instance) => {
        const file = new Uint8Array(await readFile(instance.filePath!));
        received.push({ file, size: instance.size, ...(instance.bytes ? { bytes: instance.bytes } : {}) });
      },
    });
    try {
      const files = sendableFixtures.map(fixturePath);
      const outcome = await cStore({
        host: '127.0.0.1',
        port: small.port,
        callingAet: 'MODALITY',
        calledAet: AET,
        files,
      });
      expect(outcome.failed).toBe(0);
      expect(received).toHaveLength(files.length);
      for (const [index, file] of sendableFixtures.entries()) {
        const got = received[index]!;
        expect(got.size, file.path).toBe(got.file.length);
        if (got.file.length <= limit)
          expect(got.bytes && firstDifference(got.bytes, got.file), file.path).toBe(-1);
        else expect(got.bytes, file.path).toBeUndefined();
        if (!outcome.results[index]!.reencoded)
          expect(
            firstDifference(datasetBytes(got.file), expectedSentDataset(fixturePath(file))),
            file.path,
          ).toBe(-1);
      }
      expect(received.some((r) => r.bytes) && received.some((r) => !r.bytes)).toBe(true);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await small.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('hashes each instance as it arrives (the sha256 of its bytes and of its file) and offers its own maximum PDU, whatever storescu offers', async () => {
    const limit = 64 * 1024;
    const dir = await mkdtemp(join(tmpdir(), 'radflow-scp-hash-'));
    const received: Array<{ sha256?: string; bytes?: Uint8Array; file: Uint8Array }> = [];
    const hashing = await startStoreScp({
      aeTitle: AET,
      port: 0,
      tempDir: dir,
      // Small instances in memory (bytes and file), large ones streamed to the file: both hashed.
      inMemoryMaxBytes: limit,
      sha256WhileReceiving: () => true,
      maxReceivePduLength: 128 * 1024,
      onInstance: async (instance) => {
        received.push({
          file: new Uint8Array(await readFile(instance.filePath!)),
          ...(instance.sha256 ? { sha256: instance.sha256 } : {}),
          ...(instance.bytes ? { bytes: instance.bytes } : {}),
        });
      },
    });
    try {
      const files = sendableFixtures.map(fixturePath);
      // storescu offers 16 KB (its default); -d prints the A-ASSOCIATE-AC's maximum as theirs.
      const run = await runStorescu({
        host: '127.0.0.1',
        port: hashing.port,
        callingAet: 'STORESCU',
        calledAet: AET,
        files,
        configFile: profilePath,
        extraArgs: ['-nh', '-d'],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const offered = [...`${run.stdout}${run.stderr}`.matchAll(/Their Max PDU Receive Size:\s+(\d+)/g)];
      expect(offered.map((m) => Number(m[1]))).toContain(128 * 1024);
      expect(received).toHaveLength(files.length);
      const hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
      for (const [index, got] of received.entries()) {
        expect(got.sha256, sendableFixtures[index]!.path).toBe(hex(got.file));
        if (got.bytes) expect(got.sha256).toBe(hex(got.bytes));
      }
      expect(received.some((r) => r.bytes) && received.some((r) => !r.bytes)).toBe(true);
    } finally {
      await hashing.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('hands small instances over as bytes alone with inMemoryWithoutFile, no temp file written, in the memory allocateBytes gave', async () => {
    const limit = 64 * 1024;
    const dir = await mkdtemp(join(tmpdir(), 'radflow-scp-nofile-'));
    const received: Array<{ filePath?: string; bytes?: Uint8Array; size: number }> = [];
    const allocated = new Set<ArrayBufferLike>();
    let seenInDir = 0;
    const scpNoFile = await startStoreScp({
      aeTitle: AET,
      port: 0,
      tempDir: dir,
      inMemoryMaxBytes: limit,
      inMemoryWithoutFile: true,
      allocateBytes: (length) => {
        const bytes = new Uint8Array(new SharedArrayBuffer(length + 16), 0, length);
        allocated.add(bytes.buffer);
        return bytes;
      },
      onInstance: async (instance) => {
        seenInDir = Math.max(seenInDir, (await readdir(dir)).length);
        received.push({
          size: instance.size,
          ...(instance.filePath ? { filePath: instance.filePath } : {}),
          ...(instance.bytes ? { bytes: instance.bytes } : {}),
        });
      },
    });
    try {
      const files = sendableFixtures.map(fixturePath);
      const outcome = await cStore({
        host: '127.0.0.1',
        port: scpNoFile.port,
        callingAet: 'MODALITY',
        calledAet: AET,
        files,
      });
      expect(outcome.failed).toBe(0);
      expect(received).toHaveLength(files.length);
      for (const [index, file] of sendableFixtures.entries()) {
        const got = received[index]!;
        if (got.size <= limit) {
          expect(got.filePath, file.path).toBeUndefined();
          expect(got.bytes?.length, file.path).toBe(got.size);
          expect(allocated.has(got.bytes!.buffer), file.path).toBe(true);
          if (!outcome.results[index]!.reencoded)
            expect(
              firstDifference(datasetBytes(got.bytes!), expectedSentDataset(fixturePath(file))),
              file.path,
            ).toBe(-1);
        } else expect(got.filePath, file.path).toBeDefined();
      }
      expect(received.some((r) => !r.filePath)).toBe(true);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await scpNoFile.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
