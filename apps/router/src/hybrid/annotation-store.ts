/**
 * Measurements drawn in the offline viewer (issue 27 §4, HYBRID.md "Measurements offline"), kept on
 * the router per study so that they are there when the study is opened again, on this page or after
 * a restart, and taken up to the cloud when the link returns (report-sync.ts). Like the offline
 * reports (report-store.ts), every change is one record of an append-only, checksummed journal
 * (`<ROUTER_DATA_DIR>/hybrid/annotations.journal`, fsynced before the change is answered; a torn
 * last record is cut off at start-up).
 *
 * Records: A (saved: the study, the annotation as the viewer sends it, its author, when, its version
 * id `v`), D (deleted: kept as a tombstone until the cloud has deleted it too), U (the cloud took
 * version `v`), X (the cloud refused version `v`, with its reason: kept here, never sent again).
 * A measurement is changed or deleted only by the doctor who drew it, as in the cloud for everyone
 * but a group admin (core canChangeAnnotation), and the router has no admins.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  AppError,
  MESSAGE_OFFLINE_ANNOTATIONS_FULL,
  MESSAGE_OFFLINE_ANNOTATION_NOT_FOUND,
  MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS,
  OFFLINE_ANNOTATIONS_PER_STUDY_MAX,
  type TViewerAnnotation,
  type TViewerAnnotationInput,
  type TViewerAnnotations,
} from '@radflow/core';
import { JournaledState } from './journaled-state.js';

/** Compact once the journal holds this many records and at least twice the live ones. */
const COMPACT_AFTER_RECORDS = 256;

/** Where a kept version stands with the cloud. */
type TCloudState = 'PENDING' | 'IN_CLOUD' | 'REFUSED';

interface TRef {
  studyInstanceUid: string;
  annotationUid: string;
  v: string;
}

type TRecord =
  | {
      t: 'A';
      studyInstanceUid: string;
      annotation: TViewerAnnotationInput;
      authorEmail: string;
      at: string;
      v: string;
      /** Written by compaction only: where the version stood. */
      state?: TCloudState;
    }
  | ({ t: 'D'; authorEmail: string } & TRef)
  | ({ t: 'U' } & TRef)
  | ({ t: 'X'; reason: string } & TRef);

interface TKept {
  /** Null: deleted here, the cloud not told yet (a tombstone, not listed). */
  readonly annotation: TViewerAnnotationInput | null;
  readonly authorEmail: string;
  /** When it was first drawn (a change keeps it, as the cloud keeps createdAt). */
  readonly createdAt: string;
  readonly v: string;
  readonly state: TCloudState;
}

/** A change the cloud has not taken yet: a save, or a delete (`annotation` null). */
export interface TAnnotationToSync {
  readonly studyInstanceUid: string;
  readonly annotationUid: string;
  readonly annotation: TViewerAnnotationInput | null;
  readonly authorEmail: string;
  readonly v: string;
}

export const annotationJournalPath = (dataDir: string) => join(dataDir, 'hybrid', 'annotations.journal');

export class OfflineAnnotationStore {
  /** Study → annotation uid → the kept version, in the order they were first drawn. */
  private readonly studies = new Map<string, Map<string, TKept>>();
  private journal!: JournaledState<TRecord>;

  private constructor(private readonly now: () => Date) {}

  static async open(dataDir: string, now: () => Date = () => new Date()): Promise<OfflineAnnotationStore> {
    const store = new OfflineAnnotationStore(now);
    store.journal = await JournaledState.open<TRecord>(
      annotationJournalPath(dataDir),
      {
        apply: (record) => store.apply(record),
        liveRecords: () => store.liveRecords(),
        clear: () => store.studies.clear(),
      },
      COMPACT_AFTER_RECORDS,
    );
    return store;
  }

  /** The study's measurements as the viewer reads them (no key images offline). */
  list(studyInstanceUid: string): TViewerAnnotations {
    const annotations: TViewerAnnotation[] = [];
    for (const kept of this.studies.get(studyInstanceUid)?.values() ?? []) {
      if (kept.annotation) {
        annotations.push({ ...kept.annotation, createdBy: kept.authorEmail, createdAt: kept.createdAt });
      }
    }
    return { annotations, keyImages: [] };
  }

  /** Where the study's measurements stand with the cloud (uid → state), deleted ones included. */
  cloudStates(studyInstanceUid: string): Record<string, TCloudState> {
    const states: Record<string, TCloudState> = {};
    for (const [uid, kept] of this.studies.get(studyInstanceUid) ?? []) states[uid] = kept.state;
    return states;
  }

  /** Creates or replaces one; durable before it resolves. FORBIDDEN for another doctor's. */
  async save(
    studyInstanceUid: string,
    annotation: TViewerAnnotationInput,
    authorEmail: string,
  ): Promise<TViewerAnnotation> {
    const kept = this.studies.get(studyInstanceUid);
    const existing = kept?.get(annotation.annotationUid);
    if (existing?.annotation && existing.authorEmail !== authorEmail) {
      throw new AppError('FORBIDDEN', MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS);
    }
    const shown = [...(kept?.values() ?? [])].filter((k) => k.annotation).length;
    if (!existing?.annotation && shown >= OFFLINE_ANNOTATIONS_PER_STUDY_MAX) {
      throw new AppError('CONFLICT', MESSAGE_OFFLINE_ANNOTATIONS_FULL);
    }
    const at = this.now().toISOString();
    await this.journal.append({ t: 'A', studyInstanceUid, annotation, authorEmail, at, v: randomUUID() });
    const saved = this.studies.get(studyInstanceUid)!.get(annotation.annotationUid)!;
    return { ...annotation, createdBy: authorEmail, createdAt: saved.createdAt };
  }

  /** Deletes one; durable before it resolves. NOT_FOUND when not kept, FORBIDDEN for another doctor's. */
  async remove(studyInstanceUid: string, annotationUid: string, authorEmail: string): Promise<void> {
    const existing = this.studies.get(studyInstanceUid)?.get(annotationUid);
    if (!existing?.annotation) {
      throw new AppError('NOT_FOUND', MESSAGE_OFFLINE_ANNOTATION_NOT_FOUND, 'annotationUid');
    }
    if (existing.authorEmail !== authorEmail) {
      throw new AppError('FORBIDDEN', MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS);
    }
    await this.journal.append({ t: 'D', studyInstanceUid, annotationUid, authorEmail, v: randomUUID() });
  }

  /** The oldest change the cloud has not taken, outside the studies `skip` names. */
  nextToSync(skip: ReadonlySet<string>): TAnnotationToSync | null {
    for (const [studyInstanceUid, kept] of this.studies) {
      if (skip.has(studyInstanceUid)) continue;
      for (const [annotationUid, k] of kept) {
        if (k.state !== 'PENDING') continue;
        return {
          studyInstanceUid,
          annotationUid,
          annotation: k.annotation,
          authorEmail: k.authorEmail,
          v: k.v,
        };
      }
    }
    return null;
  }

  /** The cloud took version `v`; a newer change made meanwhile stays PENDING. */
  async markTakenUp(ref: TRef): Promise<void> {
    if (this.current(ref)) await this.journal.append({ t: 'U', ...ref });
  }

  /** The cloud refused version `v` for good: kept here, not sent again (a newer change is sent). */
  async markRefused(ref: TRef, reason: string): Promise<void> {
    if (this.current(ref)) await this.journal.append({ t: 'X', ...ref, reason });
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private current(ref: TRef): boolean {
    return this.studies.get(ref.studyInstanceUid)?.get(ref.annotationUid)?.v === ref.v;
  }

  private apply(record: TRecord): void {
    let kept = this.studies.get(record.studyInstanceUid);
    if (!kept) {
      kept = new Map();
      this.studies.set(record.studyInstanceUid, kept);
    }
    if (record.t === 'A') {
      const uid = record.annotation.annotationUid;
      const before = kept.get(uid);
      kept.set(uid, {
        annotation: record.annotation,
        authorEmail: record.authorEmail,
        createdAt: before?.annotation ? before.createdAt : record.at,
        v: record.v,
        state: record.state ?? 'PENDING',
      });
      return;
    }
    const existing = kept.get(record.annotationUid);
    if (record.t === 'D') {
      kept.set(record.annotationUid, {
        annotation: null,
        authorEmail: record.authorEmail,
        createdAt: existing?.createdAt ?? '',
        v: record.v,
        state: 'PENDING',
      });
    } else if (existing?.v === record.v) {
      // A delete the cloud took or refused is over; a save stays, with where it stands.
      if (existing.annotation === null) kept.delete(record.annotationUid);
      else kept.set(record.annotationUid, { ...existing, state: record.t === 'U' ? 'IN_CLOUD' : 'REFUSED' });
    }
    if (kept.size === 0) this.studies.delete(record.studyInstanceUid);
  }

  /** One record per kept version, with where it stands. */
  private liveRecords(): TRecord[] {
    const live: TRecord[] = [];
    for (const [studyInstanceUid, kept] of this.studies) {
      for (const [annotationUid, k] of kept) {
        if (k.annotation) {
          live.push({
            t: 'A',
            studyInstanceUid,
            annotation: k.annotation,
            authorEmail: k.authorEmail,
            at: k.createdAt,
            v: k.v,
            state: k.state,
          });
        } else {
          // A tombstone: the delete the cloud has not taken yet.
          live.push({ t: 'D', studyInstanceUid, annotationUid, authorEmail: k.authorEmail, v: k.v });
        }
      }
    }
    return live;
  }
}
