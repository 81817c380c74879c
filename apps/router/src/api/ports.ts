import type {
  THybridStudy,
  TOfflineAnnotationRef,
  TOfflineAnnotationSave,
  TOfflineDraftSave,
  TOfflineReport,
  TOfflineVersion,
  TOfflineReportSave,
  TOfflineResolve,
  TPendingCase,
  TPrintAnswer,
  TRouterEvent,
  TRouterSendRecord,
  TRouterSettings,
  TRouterUpdateAnswer,
  TRouterVersionCheck,
  TRenderViewport,
  TRenderWindow,
  TSendJobRunRequest,
  TReportDraft,
  TReportTemplate,
  TViewerAnnotation,
  TViewerAnnotations,
} from '@radflow/core';
import type { DicomJsonDataset } from '@radflow/dicom';

/**
 * What the local API needs from the rest of the router. Each is a small interface so the HTTP layer
 * is tested with fakes, and the parts built on other branches (the queue, forward, release) are
 * wired in at one place (main.ts) by adapters.
 */

/** The durable upload queue (queue/), as the screen sees it: studies, their progress and errors. */
export interface UploadQueue {
  /** Every study the router holds (uploaded ones until deleted), urgent first, then oldest. */
  pendingCases(): Promise<TPendingCase[]>;
  /** Whether the router holds the study (one of pendingCases), without building the cases. */
  holds(studyInstanceUid: string): boolean;
  /**
   * Takes one DICOM Part 10 file from the browser into the queue; resolves once it is durable (a
   * repeat of a queued instance is acknowledged). Not DICOM: BAD_REQUEST naming why; the router's
   * disk quota full: CONFLICT.
   */
  enqueueFile(bytes: Uint8Array): Promise<{ studyInstanceUid: string }>;
  /** Clears a failed study's backoff so its upload is tried now. NOT_FOUND when unknown. */
  retry(studyInstanceUid: string): Promise<void>;
  /**
   * Deletes a study from the router's disk. Only a study the cloud has confirmed in full: anything
   * else rejects (CONFLICT) so nothing is lost. NOT_FOUND when unknown.
   */
  deleteUploadedStudy(studyInstanceUid: string): Promise<void>;
  /** Queue events as they happen; returns the unsubscribe. */
  subscribe(listener: (event: TRouterEvent) => void): () => void;
}

/** send-job: forward a study to a PACS on the center's network (apps/router/src/forward/). */
export interface SendJobs {
  get(studyIds: readonly string[]): Promise<TRouterSendRecord[]>;
  run(request: TSendJobRunRequest): Promise<TRouterSendRecord>;
}

export interface PrintImage {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

/** router/image/print: films to the center's printer (apps/router/src/forward/). */
export interface ImagePrinter {
  print(job: { images: readonly PrintImage[]; content: string; userEmail: string }): Promise<TPrintAnswer>;
}

/** check-version and update (apps/router/src/release/). */
export interface Releases {
  checkVersion(): Promise<TRouterVersionCheck>;
  update(): Promise<TRouterUpdateAnswer>;
}

/** The signed-in cloud user a router login verified. */
export interface VerifiedUser {
  email: string;
  identifier: string;
  /** The cloud's hybridModeOn: may read and report the center's studies on the router (HYBRID.md). */
  hybrid?: boolean;
  /** A hybrid doctor's grant from the cloud (OFFLINE_REPORT_GRANT_PATH), sent with their offline saves. */
  offlineGrant?: string;
  /**
   * A hybrid doctor's report templates as the cloud listed them at this online sign-in
   * (REPORT_TEMPLATES_PATH), kept for the editor offline; absent when the cloud did not answer them.
   */
  templates?: TReportTemplate[];
}

/** The offline hybrid screens (HYBRID.md): the router's studies and the reports written on it. */
export interface HybridReports {
  studies(): Promise<THybridStudy[]>;
  report(studyInstanceUid: string): TOfflineReport | null;
  /** The versions of the study's offline report the router keeps, oldest first. */
  versions(studyInstanceUid: string): TOfflineVersion[];
  /** Durable before it resolves; the sync is told at once. CONFLICT as the store refuses. */
  save(input: TOfflineReportSave, author: VerifiedUser): Promise<TOfflineReport>;
  /** A choice for a study in CONFLICT: durable before it resolves, sent when the link allows. */
  resolve(input: TOfflineResolve, user: VerifiedUser): Promise<TOfflineReport>;
  /** The measurements drawn offline on a study the router holds (NOT_FOUND for another). */
  annotations(studyInstanceUid: string): Promise<TViewerAnnotations>;
  /** Durable before it resolves; FORBIDDEN for another doctor's, CONFLICT past the per-study cap. */
  saveAnnotation(input: TOfflineAnnotationSave, author: VerifiedUser): Promise<TViewerAnnotation>;
  deleteAnnotation(ref: TOfflineAnnotationRef, author: VerifiedUser): Promise<void>;
  /** The user's unsaved text of the study's offline report, or null. */
  draft(studyInstanceUid: string, user: VerifiedUser): TReportDraft | null;
  /** Durable before it resolves; NOT_FOUND for a study the router does not hold. */
  saveDraft(input: TOfflineDraftSave, user: VerifiedUser): Promise<TReportDraft>;
  deleteDraft(studyInstanceUid: string, user: VerifiedUser): Promise<void>;
}

/**
 * The images of the studies the router holds, for the offline viewer (HYBRID.md "The viewer
 * offline"; hybrid/spool-images.ts). NOT_FOUND for a study, series or instance the router lacks.
 */
export interface OfflineImages {
  study(studyInstanceUid: string): Promise<DicomJsonDataset>;
  series(studyInstanceUid: string): Promise<DicomJsonDataset[]>;
  seriesInstances(
    studyInstanceUid: string,
    seriesInstanceUid: string,
  ): Promise<readonly { sopInstanceUid: string; metadata: DicomJsonDataset }[]>;
  instance(
    studyInstanceUid: string,
    seriesInstanceUid: string,
    sopInstanceUid: string,
  ): Promise<{ metadata: DicomJsonDataset }>;
  frame(target: TImageTarget, frameNumber: number): Promise<{ bytes: Uint8Array; transferSyntaxUid: string }>;
  rendered(
    target: TImageTarget,
    frameNumber: number,
    options: { viewport?: TRenderViewport | undefined; window?: TRenderWindow | undefined },
  ): Promise<Buffer>;
}

export interface TImageTarget {
  study: string;
  series: string;
  sop: string;
}

/** Verifies a user's cloud credentials (cloud-login.ts); rejects with UNAUTHORIZED / FORBIDDEN. */
export interface CloudLogin {
  verify(credentials: { email: string; password: string }): Promise<VerifiedUser>;
}

/** The router's settings for GET /setting/get. */
export interface SettingsSource {
  settings(): TRouterSettings;
}
