/**
 * Measurements drawn in the offline viewer (issue 27 §4, HYBRID.md "Measurements offline"), kept on
 * the router per study so that they are there when the study is opened again, on this page or after
 * a restart. Like the offline reports (report-store.ts), every change is one record of an
 * append-only, checksummed journal (`<ROUTER_DATA_DIR>/hybrid/annotations.journal`, fsynced before
 * the change is answered; a torn last record is cut off at start-up).
 *
 * Records: A (saved: the study, the annotation as the viewer sends it, its author, when), D (deleted).
 * A measurement is changed or deleted only by the doctor who drew it, as in the cloud for everyone
 * but a group admin (core canChangeAnnotation), and the router has no admins.
 */
import { mkdir } from 'node:fs/promises';
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
import { fsyncDir } from '../queue/fs-durable.js';
import { Journal } from '../queue/journal.js';

/** Compact once the journal holds this many records and at least twice the live ones. */
const COMPACT_AFTER_RECORDS = 256;

type TRecord =
  | {
      t: 'A';
      studyInstanceUid: string;
      annotation: TViewerAnnotationInput;
      authorEmail: string;
      at: string;
    }
  | { t: 'D'; studyInstanceUid: string; annotationUid: string };

interface TKept {
  readonly annotation: TViewerAnnotationInput;
  readonly authorEmail: string;
  /** When it was first drawn (a change keeps it, as the cloud keeps createdAt). */
  readonly createdAt: string;
}

export const annotationJournalPath = (dataDir: string) => join(dataDir, 'hybrid', 'annotations.journal');

export class OfflineAnnotationStore {
  /** Study → annotation uid → the kept annotation, in the order they were first drawn. */
  private readonly studies = new Map<string, Map<string, TKept>>();
  private recordCount = 0;

  private constructor(
    private readonly journal: Journal,
    private readonly now: () => Date,
  ) {}

  static async open(dataDir: string, now: () => Date = () => new Date()): Promise<OfflineAnnotationStore> {
    await mkdir(join(dataDir, 'hybrid'), { recursive: true });
    await fsyncDir(dataDir);
    const { journal, read } = await Journal.open<TRecord>(annotationJournalPath(dataDir));
    const store = new OfflineAnnotationStore(journal, now);
    for (const record of read.records) store.apply(record);
    store.recordCount = read.records.length;
    await store.compactIfLarge();
    return store;
  }

  /** The study's measurements as the viewer reads them (no key images offline). */
  list(studyInstanceUid: string): TViewerAnnotations {
    const kept = this.studies.get(studyInstanceUid);
    return {
      annotations: kept ? [...kept.values()].map(asViewerAnnotation) : [],
      keyImages: [],
    };
  }

  /** Creates or replaces one; durable before it resolves. FORBIDDEN for another doctor's. */
  async save(
    studyInstanceUid: string,
    annotation: TViewerAnnotationInput,
    authorEmail: string,
  ): Promise<TViewerAnnotation> {
    const kept = this.studies.get(studyInstanceUid);
    const existing = kept?.get(annotation.annotationUid);
    if (existing && existing.authorEmail !== authorEmail) {
      throw new AppError('FORBIDDEN', MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS);
    }
    if (!existing && (kept?.size ?? 0) >= OFFLINE_ANNOTATIONS_PER_STUDY_MAX) {
      throw new AppError('CONFLICT', MESSAGE_OFFLINE_ANNOTATIONS_FULL);
    }
    const record: TRecord = {
      t: 'A',
      studyInstanceUid,
      annotation,
      authorEmail,
      at: this.now().toISOString(),
    };
    await this.append(record);
    return asViewerAnnotation(this.studies.get(studyInstanceUid)!.get(annotation.annotationUid)!);
  }

  /** Deletes one; durable before it resolves. NOT_FOUND when not kept, FORBIDDEN for another doctor's. */
  async remove(studyInstanceUid: string, annotationUid: string, authorEmail: string): Promise<void> {
    const existing = this.studies.get(studyInstanceUid)?.get(annotationUid);
    if (!existing) throw new AppError('NOT_FOUND', MESSAGE_OFFLINE_ANNOTATION_NOT_FOUND, 'annotationUid');
    if (existing.authorEmail !== authorEmail) {
      throw new AppError('FORBIDDEN', MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS);
    }
    await this.append({ t: 'D', studyInstanceUid, annotationUid });
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private async append(record: TRecord): Promise<void> {
    await this.journal.append(record);
    this.apply(record);
    this.recordCount++;
    await this.compactIfLarge();
  }

  private apply(record: TRecord): void {
    let kept = this.studies.get(record.studyInstanceUid);
    if (record.t === 'D') {
      kept?.delete(record.annotationUid);
      if (kept?.size === 0) this.studies.delete(record.studyInstanceUid);
      return;
    }
    if (!kept) {
      kept = new Map();
      this.studies.set(record.studyInstanceUid, kept);
    }
    const uid = record.annotation.annotationUid;
    kept.set(uid, {
      annotation: record.annotation,
      authorEmail: record.authorEmail,
      createdAt: kept.get(uid)?.createdAt ?? record.at,
    });
  }

  /** One A record per kept annotation, dated when it was first drawn. */
  private liveRecords(): TRecord[] {
    const live: TRecord[] = [];
    for (const [studyInstanceUid, kept] of this.studies) {
      for (const { annotation, authorEmail, createdAt } of kept.values()) {
        live.push({ t: 'A', studyInstanceUid, annotation, authorEmail, at: createdAt });
      }
    }
    return live;
  }

  private async compactIfLarge(): Promise<void> {
    if (this.recordCount < COMPACT_AFTER_RECORDS) return;
    if (this.recordCount < this.liveRecords().length * 2) return;
    let live: TRecord[] = [];
    await this.journal.rewrite(() => (live = this.liveRecords()));
    this.studies.clear();
    for (const record of live) this.apply(record);
    this.recordCount = live.length;
  }
}

function asViewerAnnotation(kept: TKept): TViewerAnnotation {
  return { ...kept.annotation, createdBy: kept.authorEmail, createdAt: kept.createdAt };
}
