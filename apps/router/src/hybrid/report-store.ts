/**
 * Reports written on the router while the link is down (issue 27 §4, HYBRID.md). Every save is one
 * record of an append-only, checksummed journal (`<ROUTER_DATA_DIR>/hybrid/reports.journal`, the
 * queue's journal.ts: fsynced before the save is answered, a torn last record cut off at start-up),
 * so an acknowledged offline report survives a crash or a power cut.
 *
 * Records: W (a save: the write id the cloud dedupes on, study, author, name, content, sign-off,
 * router version), S (the cloud took write `id` as its version `savedVersion` of row
 * `reportStatusId`), C (the cloud refused the study's report: its writes stop, the text stays),
 * R (a user chose how to resolve the conflict: queued until the cloud answers), X (the cloud answered
 * the resolution with its current report: the router's copy becomes that text, the conflict ends),
 * F (the cloud refused the resolution: the conflict stays, with the cloud's reason).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AppError,
  MESSAGE_IN_CONFLICT,
  MESSAGE_NOT_IN_CONFLICT,
  MESSAGE_SIGNED_OFF_OFFLINE,
  REPORTING_MESSAGES,
  type TOfflineReport,
  type TOfflineResolution,
  type TOfflineResolveResult,
  type TOfflineVersion,
  type TOfflineVersionState,
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

/** A resolution chosen on the router, waiting for the cloud. */
export interface TPendingResolution {
  readonly id: string;
  readonly studyInstanceUid: string;
  readonly action: TOfflineResolution;
  readonly authorEmail: string;
  readonly authorName: string;
  readonly at: string;
}

type TRecord =
  | ({ t: 'W' } & TOfflineWrite)
  | { t: 'S'; id: string; reportStatusId: number; savedVersion: number | null }
  | { t: 'C'; studyInstanceUid: string; reason: string; at: string }
  | ({ t: 'R' } & TPendingResolution)
  | {
      t: 'X';
      id: string;
      reportStatusId: number;
      name: string;
      content: string;
      savedVersion: number | null;
      signedOff: boolean;
    }
  | { t: 'F'; id: string; reason: string };

interface TStudyReports {
  writes: TOfflineWrite[];
  /**
   * Write id → the cloud's answer. A copy of the cloud's text a resolution brought (X) is "synced"
   * with the cloud's version, null when the cloud had no text yet: it is never sent.
   */
  synced: Map<string, { reportStatusId: number; savedVersion: number | null }>;
  conflict: string | null;
  /** The resolution on its way to the cloud (R without X or F yet). */
  pending: TPendingResolution | null;
  /** The last resolution the cloud took. */
  resolved: { action: TOfflineResolution; at: string } | null;
  /** The writes a resolution set aside (the refused offline text): history, never sent. */
  history: TOfflineWrite[];
  /** Every record of the study, in order, once a resolution was chosen: compaction keeps them all. */
  log: TRecord[];
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
      study = {
        writes: [],
        synced: new Map(),
        conflict: null,
        pending: null,
        resolved: null,
        history: [],
        log: [],
      };
      this.studies.set(uid, study);
    }
    return study;
  }

  private studyOfResolution(id: string): TStudyReports | undefined {
    for (const study of this.studies.values()) if (study.pending?.id === id) return study;
    return undefined;
  }

  private apply(record: TRecord): void {
    if (record.t === 'R') {
      // From its first resolution on, a study's records are all kept: seed its log with what
      // compaction would keep of it so far (a study not yet logged has only W/S/C records).
      const study = this.studyOf(record.studyInstanceUid);
      if (study.log.length === 0) study.log.push(...this.liveRecordsOf(study));
    }
    const touched = this.applyRecord(record);
    if (touched && touched.log.length > 0) touched.log.push(record);
  }

  /** Applies one record; answers the study it changed (for the study's log). */
  private applyRecord(record: TRecord): TStudyReports | undefined {
    switch (record.t) {
      case 'W': {
        const { t: _t, ...write } = record;
        const study = this.studyOf(write.studyInstanceUid);
        study.writes.push(write);
        return study;
      }
      case 'S':
        for (const study of this.studies.values()) {
          if (study.writes.some((w) => w.id === record.id)) {
            study.synced.set(record.id, {
              reportStatusId: record.reportStatusId,
              savedVersion: record.savedVersion,
            });
            return study;
          }
        }
        return undefined;
      case 'C': {
        const study = this.studyOf(record.studyInstanceUid);
        study.conflict = record.reason;
        return study;
      }
      case 'R': {
        const { t: _t, ...pending } = record;
        const study = this.studyOf(record.studyInstanceUid);
        study.pending = pending;
        return study;
      }
      case 'X': {
        const study = this.studyOfResolution(record.id);
        if (!study?.pending) return undefined;
        const pending = study.pending;
        const newest = study.writes.at(-1);
        // The refused offline text becomes history; the copy shows the cloud's text from now on.
        study.history.push(...study.writes.filter((w) => !study.synced.has(w.id)));
        study.writes = study.writes.filter((w) => study.synced.has(w.id));
        study.writes.push({
          id: record.id,
          studyInstanceUid: pending.studyInstanceUid,
          authorEmail: pending.authorEmail,
          authorName: pending.authorName,
          name: record.name,
          content: record.content,
          signOff: record.signedOff,
          localVersion: (newest?.localVersion ?? 0) + 1,
          writtenAt: pending.at,
        });
        study.synced.set(record.id, {
          reportStatusId: record.reportStatusId,
          savedVersion: record.savedVersion,
        });
        study.conflict = null;
        study.pending = null;
        study.resolved = { action: pending.action, at: pending.at };
        return study;
      }
      case 'F': {
        const study = this.studyOfResolution(record.id);
        if (!study) return undefined;
        study.pending = null;
        study.conflict = record.reason;
        return study;
      }
      default:
        // A record of a newer router version: skipped, not a reason to refuse to start.
        return undefined;
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
    return [...this.studies.values()].flatMap((study) => this.liveRecordsOf(study));
  }

  private liveRecordsOf(study: TStudyReports): TRecord[] {
    // A study a resolution touched keeps its whole story (rare): the set-aside text is history.
    if (study.log.length > 0) return [...study.log];
    const out: TRecord[] = [];
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
    if (study?.conflict !== null && study?.conflict !== undefined)
      throw new AppError('CONFLICT', MESSAGE_IN_CONFLICT);
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
      resolution: study.pending
        ? { action: study.pending.action, state: 'QUEUED', at: study.pending.at }
        : study.resolved
          ? { ...study.resolved, state: 'DONE' }
          : null,
    };
  }

  /**
   * Every version of the study's report the router keeps, oldest first: its writes (a version the
   * cloud took and a newer one replaced may have been compacted away: it is in the cloud) and the
   * texts a resolution set aside.
   */
  versions(studyInstanceUid: string): TOfflineVersion[] {
    const study = this.studies.get(studyInstanceUid);
    if (!study) return [];
    // The cloud's text a resolution brought is the write with the resolution's id.
    const resolutions = new Set(study.log.filter((r) => r.t === 'R').map((r) => r.id));
    const version = (write: TOfflineWrite, state: TOfflineVersionState): TOfflineVersion => ({
      localVersion: write.localVersion,
      name: write.name,
      content: write.content,
      signedOff: write.signOff,
      authorEmail: write.authorEmail,
      authorName: write.authorName,
      writtenAt: write.writtenAt,
      state,
      cloudVersion: study.synced.get(write.id)?.savedVersion ?? null,
    });
    return [
      ...study.history.map((w) => version(w, 'SET_ASIDE')),
      ...study.writes.map((w) =>
        version(w, resolutions.has(w.id) ? 'FROM_CLOUD' : study.synced.has(w.id) ? 'IN_CLOUD' : 'WAITING'),
      ),
    ].sort((a, b) => a.localVersion - b.localVersion);
  }

  /** The offline texts a resolution set aside (oldest first): kept, never sent. */
  history(studyInstanceUid: string): readonly TOfflineWrite[] {
    return this.studies.get(studyInstanceUid)?.history ?? [];
  }

  /**
   * A user's choice for a study in conflict, durable before it is answered; the sync sends it when
   * the link allows. One at a time per study: 409 when the study is not in conflict or a choice is
   * already on its way.
   */
  async resolve(
    studyInstanceUid: string,
    action: TOfflineResolution,
    author: { email: string; identifier: string },
  ): Promise<TOfflineReport> {
    const study = this.studies.get(studyInstanceUid);
    if (!study || study.conflict === null || study.pending !== null)
      throw new AppError('CONFLICT', MESSAGE_NOT_IN_CONFLICT, 'studyInstanceUid');
    await this.record({
      t: 'R',
      id: randomUUID(),
      studyInstanceUid,
      action,
      authorEmail: author.email,
      authorName: author.identifier,
      at: this.now().toISOString(),
    });
    return this.report(studyInstanceUid)!;
  }

  /** The oldest resolution still to send, with the offline text it concerns. */
  nextResolution(
    deferred: ReadonlySet<string> = new Set(),
  ): (TPendingResolution & { name: string; content: string }) | null {
    let best: (TPendingResolution & { name: string; content: string }) | null = null;
    for (const [uid, study] of this.studies) {
      const newest = study.writes.at(-1);
      if (!study.pending || !newest || deferred.has(uid)) continue;
      if (!best || study.pending.at < best.at)
        best = { ...study.pending, name: newest.name, content: newest.content };
    }
    return best;
  }

  async markResolved(id: string, answer: TOfflineResolveResult): Promise<void> {
    await this.record({
      t: 'X',
      id,
      reportStatusId: answer.reportStatusId,
      name: answer.name,
      content: answer.content,
      savedVersion: answer.savedVersion,
      signedOff: answer.signedOff,
    });
  }

  async markResolutionRefused(id: string, reason: string): Promise<void> {
    await this.record({ t: 'F', id, reason });
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
      if (study.pending !== null) continue;
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
