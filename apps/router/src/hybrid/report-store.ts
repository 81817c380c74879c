/**
 * Reports written on the router while the link is down (issue 27 §4, HYBRID.md). Every save is one
 * record of an append-only, checksummed journal (`<ROUTER_DATA_DIR>/hybrid/reports.journal`, the
 * queue's journal.ts: fsynced before the save is answered, a torn last record cut off at start-up),
 * so an acknowledged offline report survives a crash or a power cut.
 *
 * Records: W (a save: the write id the cloud dedupes on, study, author, name, content, sign-off,
 * router version), S (the cloud took write `id` as its version `savedVersion` of row
 * `reportStatusId`), C (the cloud refused the study's report: its writes stop, the text stays).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AppError,
  MESSAGE_IN_CONFLICT,
  MESSAGE_SIGNED_OFF_OFFLINE,
  REPORTING_MESSAGES,
  type TOfflineReport,
} from '@radflow/core';
import { fsyncDir } from '../queue/fs-durable.js';
import { Journal, type TRewriteStep } from '../queue/journal.js';

/** Compact once the journal holds this many records and at least twice the live ones. */
const COMPACT_AFTER_RECORDS = 64;

export interface TOfflineWrite {
  readonly id: string;
  readonly studyInstanceUid: string;
  readonly authorEmail: string;
  readonly authorName: string;
  readonly name: string;
  readonly content: string;
  readonly signOff: boolean;
  readonly localVersion: number;
  readonly writtenAt: string;
}

type TRecord =
  | ({ t: 'W' } & TOfflineWrite)
  | { t: 'S'; id: string; reportStatusId: number; savedVersion: number }
  | { t: 'C'; studyInstanceUid: string; reason: string; at: string };

interface TStudyReports {
  writes: TOfflineWrite[];
  /** Write id → the cloud's answer. */
  synced: Map<string, { reportStatusId: number; savedVersion: number }>;
  conflict: string | null;
}

export const reportJournalPath = (dataDir: string) => join(dataDir, 'hybrid', 'reports.journal');

export class OfflineReportStore {
  private readonly studies = new Map<string, TStudyReports>();
  /** Records in the journal file now (for when compaction pays). */
  private recordCount = 0;

  private constructor(
    private readonly journal: Journal,
    private readonly now: () => Date,
  ) {}

  static async open(dataDir: string, now: () => Date = () => new Date()): Promise<OfflineReportStore> {
    const dir = join(dataDir, 'hybrid');
    await mkdir(dir, { recursive: true });
    await fsyncDir(dataDir);
    const { journal, read } = await Journal.open<TRecord>(reportJournalPath(dataDir));
    const store = new OfflineReportStore(journal, now);
    for (const record of read.records) store.apply(record);
    store.recordCount = read.records.length;
    await store.compactIfLarge();
    return store;
  }

  private studyOf(uid: string): TStudyReports {
    let study = this.studies.get(uid);
    if (!study) {
      study = { writes: [], synced: new Map(), conflict: null };
      this.studies.set(uid, study);
    }
    return study;
  }

  private apply(record: TRecord): void {
    switch (record.t) {
      case 'W': {
        const { t: _t, ...write } = record;
        this.studyOf(write.studyInstanceUid).writes.push(write);
        return;
      }
      case 'S':
        for (const study of this.studies.values()) {
          if (study.writes.some((w) => w.id === record.id)) {
            study.synced.set(record.id, {
              reportStatusId: record.reportStatusId,
              savedVersion: record.savedVersion,
            });
          }
        }
        return;
      case 'C':
        this.studyOf(record.studyInstanceUid).conflict = record.reason;
        return;
      default:
        // A record of a newer router version: skipped, not a reason to refuse to start.
        return;
    }
  }

  /** Appends and applies: the record is on disk before anyone is told. */
  private async record(record: TRecord): Promise<void> {
    await this.journal.append(record);
    this.apply(record);
    this.recordCount++;
  }

  /**
   * The records that keep every report as it reads now (compaction): per study, the newest version
   * the cloud took with its S record (the list's cloud row and version, and the base of the next
   * send); every version not sent yet, each still to go up in order; for a study in conflict, its
   * newest text and the C record (nothing more is sent for it). Dropped: synced versions a later
   * synced one supersedes, and unsent versions a conflict stopped. Studies keep their order.
   */
  private liveRecords(): TRecord[] {
    const out: TRecord[] = [];
    for (const study of this.studies.values()) {
      const lastSynced = study.writes.findLast((w) => study.synced.has(w.id));
      const newest = study.writes.at(-1);
      const kept = study.writes.filter((w) =>
        study.conflict !== null
          ? w === lastSynced || w === newest
          : w === lastSynced || !study.synced.has(w.id),
      );
      for (const write of kept) {
        out.push({ t: 'W', ...write });
        const answer = study.synced.get(write.id);
        if (answer) out.push({ t: 'S', id: write.id, ...answer });
      }
      if (study.conflict !== null && newest) {
        out.push({
          t: 'C',
          studyInstanceUid: newest.studyInstanceUid,
          reason: study.conflict,
          at: newest.writtenAt,
        });
      }
    }
    return out;
  }

  /**
   * Rewrites the journal with the live records only (Journal.rewrite: new file, fsync, rename, fsync
   * of the directory; a save meanwhile waits and lands in the new file). The in-memory state drops
   * what the file drops, so a restart reads back exactly what is shown now.
   */
  async compact(options: { crashAt?: (step: TRewriteStep) => void } = {}): Promise<void> {
    let live: TRecord[] = [];
    await this.journal.rewrite(() => (live = this.liveRecords()), options);
    this.studies.clear();
    for (const record of live) this.apply(record);
    this.recordCount = live.length;
  }

  /** Compacts when the journal is mostly superseded records. */
  async compactIfLarge(): Promise<void> {
    if (this.recordCount < COMPACT_AFTER_RECORDS) return;
    if (this.recordCount < this.liveRecords().length * 2) return;
    await this.compact();
  }

  /**
   * One offline save. Refused, as the cloud would: from another version than the newest on the
   * router (two tabs), after an offline sign-off, or once the cloud refused the study's report.
   */
  async save(input: {
    studyInstanceUid: string;
    author: { email: string; identifier: string };
    name: string;
    content: string;
    signOff: boolean;
    baseLocalVersion: number | null;
  }): Promise<TOfflineReport> {
    const study = this.studies.get(input.studyInstanceUid);
    const newest = study?.writes.at(-1);
    if (study?.conflict) throw new AppError('CONFLICT', MESSAGE_IN_CONFLICT);
    if (newest?.signOff) throw new AppError('CONFLICT', MESSAGE_SIGNED_OFF_OFFLINE);
    if ((newest?.localVersion ?? null) !== input.baseLocalVersion) {
      throw new AppError('CONFLICT', REPORTING_MESSAGES.savedElsewhere, 'baseLocalVersion');
    }
    await this.record({
      t: 'W',
      id: randomUUID(),
      studyInstanceUid: input.studyInstanceUid,
      authorEmail: input.author.email,
      authorName: input.author.identifier,
      name: input.name,
      content: input.content,
      signOff: input.signOff,
      localVersion: (newest?.localVersion ?? 0) + 1,
      writtenAt: this.now().toISOString(),
    });
    return this.report(input.studyInstanceUid)!;
  }

  /** The newest offline version of the study's report, or null when none was written here. */
  report(studyInstanceUid: string): TOfflineReport | null {
    const study = this.studies.get(studyInstanceUid);
    const newest = study?.writes.at(-1);
    if (!study || !newest) return null;
    const lastSynced = [...study.writes].reverse().find((w) => study.synced.has(w.id));
    const cloud = lastSynced ? study.synced.get(lastSynced.id)! : null;
    const allSynced = study.writes.every((w) => study.synced.has(w.id));
    return {
      studyInstanceUid,
      name: newest.name,
      content: newest.content,
      localVersion: newest.localVersion,
      signedOff: newest.signOff,
      state: study.conflict !== null ? 'CONFLICT' : allSynced ? 'SYNCED' : 'PENDING',
      reason: study.conflict,
      authorEmail: newest.authorEmail,
      authorName: newest.authorName,
      writtenAt: newest.writtenAt,
      reportStatusId: cloud?.reportStatusId ?? null,
      cloudVersion: cloud?.savedVersion ?? null,
    };
  }

  list(): TOfflineReport[] {
    return [...this.studies.keys()]
      .map((uid) => this.report(uid))
      .filter((r): r is TOfflineReport => r !== null);
  }

  /**
   * The next write to take up: the oldest unsent write of a study that is neither refused nor
   * deferred, with the cloud version it starts from (the version its predecessor got; null for a
   * study's first write: the router knows of no cloud report, so one written there is a conflict).
   */
  nextToSync(
    deferred: ReadonlySet<string> = new Set(),
  ): { write: TOfflineWrite; baseVersion: number | null } | null {
    let best: { write: TOfflineWrite; baseVersion: number | null } | null = null;
    for (const [uid, study] of this.studies) {
      if (study.conflict !== null || deferred.has(uid)) continue;
      const index = study.writes.findIndex((w) => !study.synced.has(w.id));
      if (index < 0) continue;
      const write = study.writes[index]!;
      const previous = index > 0 ? study.synced.get(study.writes[index - 1]!.id) : undefined;
      if (!best || write.writtenAt < best.write.writtenAt)
        best = { write, baseVersion: previous?.savedVersion ?? null };
    }
    return best;
  }

  async markSynced(id: string, answer: { reportStatusId: number; savedVersion: number }): Promise<void> {
    await this.record({ t: 'S', id, ...answer });
    // Each taken save makes older records dead. A failed compaction leaves the old journal whole
    // (the rewrite is atomic): it is tried again at the next one, and the S record is already durable.
    await this.compactIfLarge().catch(() => undefined);
  }

  async markConflict(studyInstanceUid: string, reason: string): Promise<void> {
    await this.record({ t: 'C', studyInstanceUid, reason, at: this.now().toISOString() });
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
