import { open, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseInstance } from '@radflow/dicom';

/**
 * Where a send-job's instances come from (issue 27 §3: "from the cloud or the local queue"). The
 * router's queue/store implements it for studies it holds; {@link CloudStudySource} fetches a study
 * from the cloud; {@link DirectoryStudySource} reads a folder per study.
 */
export interface StudySource {
  /** Part 10 files of the study; `release` removes whatever the source made for this send (temp files). */
  open(studyInstanceUid: string): Promise<StudyFiles>;
}

export interface StudyFiles {
  readonly files: readonly string[];
  release(): Promise<void>;
}

export class StudyNotFoundError extends Error {
  override readonly name = 'StudyNotFoundError';
}

/** PS3.5 §9.1 UID: digits and dots, at most 64 characters (also keeps a UID from naming a path). */
export const UID_PATTERN = /^[0-9]+(\.[0-9]+)*$/;
export const isUid = (value: string) => value.length <= 64 && UID_PATTERN.test(value);

/**
 * Sources tried in order; the first that has the study gives it (the local store first, so a study
 * still at the center is not fetched back from the cloud).
 */
export class FirstStudySource implements StudySource {
  constructor(private readonly sources: readonly StudySource[]) {}

  async open(studyInstanceUid: string): Promise<StudyFiles> {
    let lastMissing: StudyNotFoundError | undefined;
    for (const source of this.sources) {
      try {
        return await source.open(studyInstanceUid);
      } catch (error) {
        if (!(error instanceof StudyNotFoundError)) throw error;
        lastMissing = error;
      }
    }
    throw lastMissing ?? new StudyNotFoundError(`Study ${studyInstanceUid} not found`);
  }
}

/**
 * `<root>/<Study Instance UID>/…` (any depth): every file there whose Study Instance UID is the
 * study's (a stray file in the folder is not sent to a PACS under another study).
 */
export class DirectoryStudySource implements StudySource {
  constructor(private readonly root: string) {}

  async open(studyInstanceUid: string): Promise<StudyFiles> {
    if (!isUid(studyInstanceUid))
      throw new StudyNotFoundError(`Not a Study Instance UID: ${studyInstanceUid}`);
    const dir = path.join(this.root, studyInstanceUid);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true, recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new StudyNotFoundError(`Study ${studyInstanceUid} is not in ${this.root}`);
      throw error;
    }
    const files: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      if ((await studyUidOf(file)) === studyInstanceUid) files.push(file);
    }
    if (files.length === 0)
      throw new StudyNotFoundError(`Study ${studyInstanceUid} has no instances in ${dir}`);
    files.sort();
    return { files, release: async () => {} };
  }
}

/** The Study Instance UID of a file (read from its first bytes, else whole), or undefined when it is not DICOM. */
async function studyUidOf(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  let head: Uint8Array;
  let whole: boolean;
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = new Uint8Array(buffer.subarray(0, bytesRead));
    whole = bytesRead >= size;
  } finally {
    await handle.close();
  }
  try {
    return parseInstance(head, { requireUids: false }).studyInstanceUid;
  } catch {
    if (whole) return undefined;
  }
  try {
    return parseInstance(new Uint8Array(await readFile(file)), { requireUids: false }).studyInstanceUid;
  } catch {
    return undefined;
  }
}

const HEAD_BYTES = 256 * 1024;
