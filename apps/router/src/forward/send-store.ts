import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TForwardInstanceStatus, TForwardStatus } from '@radflow/core';

/** One instance of a send (spec-core §3 Router-send record: instanceSendStatuses (status)). */
export interface InstanceSendStatus {
  sopInstanceUid: string;
  status: TForwardInstanceStatus;
  attempts: number;
  /** Why the last attempt failed (the PACS's status and comment, or the network error). */
  error: string | null;
}

/** spec-core §3 Router-send record, as the router keeps it (and `send-job/get` answers it). */
export interface RouterSendRecord {
  id: string;
  /** The study as `send-job/run` named it: its Study Instance UID. */
  studyId: string;
  studyInstanceId: string;
  reportStatusId: number | null;
  status: TForwardStatus;
  aeTitle: string;
  /** "host:port" */
  destination: string;
  userEmail: string | null;
  /** As the browser sent it (`createdAt` of send-job/run), else when the router took the job. */
  createdAt: string;
  updatedAt: string;
  /** Why the record is FAILED (the first failing instance's reason, or why no instance could be read). */
  lastError: string | null;
  instanceSendStatuses: InstanceSendStatus[];
}

/**
 * The router's send records, one JSON file each under `<dataDir>/send-jobs/`, each written whole
 * to a temp file, flushed and renamed over the old one: a crash leaves the old or the new record,
 * never half of one, and a restart lists every past send.
 */
export class SendRecordStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'send-jobs');
  }

  async loadAll(): Promise<RouterSendRecord[]> {
    await mkdir(this.dir, { recursive: true });
    const records: RouterSendRecord[] = [];
    for (const name of await readdir(this.dir)) {
      if (name.endsWith('.tmp')) {
        // A write the process did not finish: the record it was replacing is still there.
        await rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        records.push(JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as RouterSendRecord);
      } catch {
        // An unreadable record is left on disk for a person to look at, not thrown away.
      }
    }
    return records;
  }

  async save(record: RouterSendRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = path.join(this.dir, `${record.id}.json`);
    const temp = `${target}.${randomUUID()}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(JSON.stringify(record));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  }

  async remove(id: string): Promise<void> {
    await rm(path.join(this.dir, `${id}.json`), { force: true });
  }
}
