/**
 * Offline hybrid (issue 27 §4): reports written on the center router while the link is down, and
 * the one cloud call that takes them up (apps/router/HYBRID.md). Shared by the router (writer and
 * sync) and the server (acceptance).
 */
import { z } from 'zod';
import { ZStudyInstanceUid } from '../dicom/uid-schema.js';
import { ZReportDraftRequest } from '../reporting/drafts.js';
import { ZReportSaveRequest, ZReportTemplate } from '../reporting/schemas.js';
import { ZAnnotationUid, ZViewerAnnotationInput } from '../viewer/schemas.js';

/** The cloud's call the router takes offline reports up with (API token, ROLE_CENTER owner). */
export const OFFLINE_REPORT_UPLOAD_PATH = '/api/router/offline-report';

/**
 * The cloud's call that gives a hybrid doctor's online sign-in on the router a grant (their session,
 * never the router's token). The router keeps it with the offline verifier and sends it with each of
 * that doctor's offline saves: the center's token alone never names an author.
 */
export const OFFLINE_REPORT_GRANT_PATH = '/api/router/offline-grant';
/** How long a grant lets a router take up a doctor's offline reports without a new online sign-in. */
export const OFFLINE_REPORT_GRANT_DAYS = 30;

export const ZOfflineReportGrant = z.object({
  grant: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type TOfflineReportGrant = z.infer<typeof ZOfflineReportGrant>;

/** What both uploads of an offline report (its save, its conflict's resolution) say about it. */
const OFFLINE_AUTHOR_FIELDS = {
  /** The study as the router knows it; the cloud finds its row among the center's studies. */
  studyInstanceUid: ZStudyInstanceUid,
  /** The hybrid user who wrote it offline: the report is theirs, signed with their signature. */
  authorEmail: z.email().max(254),
  /** The author's grant (OFFLINE_REPORT_GRANT_PATH) from their last online sign-in on this router. */
  authorGrant: z.string().max(128),
};

/** One offline save, as the router sends it: the save call's body plus who, which study, which write. */
export const ZOfflineReportUpload = ZReportSaveRequest.pick({
  name: true,
  content: true,
  signOff: true,
  baseVersion: true,
}).extend({
  /** The router's id of this save: a repeat of the same write is answered SAME, never saved twice. */
  writeId: z.uuid(),
  ...OFFLINE_AUTHOR_FIELDS,
  /** When it was written on the router (ISO 8601), kept on the timeline. */
  writtenAt: z.iso.datetime({ offset: true }),
});
export type TOfflineReportUpload = z.infer<typeof ZOfflineReportUpload>;

export const ZOfflineReportUploadResult = z.object({
  /** SAVED: written now; SAME: this writeId was taken before (the answer is the first one's). */
  outcome: z.enum(['SAVED', 'SAME']),
  reportStatusId: z.number().int(),
  savedVersion: z.number().int(),
});
export type TOfflineReportUploadResult = z.infer<typeof ZOfflineReportUploadResult>;

/** Why the cloud did not take an offline report (server answer's additionalInfo on 404 / 403). */
export const OFFLINE_REPORT_MESSAGES = {
  studyNotInCloud: 'The study is not in the cloud yet',
  authorNotHybrid: 'The author is not an offline-hybrid doctor of this center',
  /** No grant of the author's, or an expired one: they sign in on the router while it is online. */
  authorNotProven:
    "The author's sign-in on this router is missing or expired; they must sign in on the router while it is online",
  /** The row is held by another doctor in the cloud (locked or assigned): the author may not write it. */
  heldInCloud: 'The study was taken by another doctor in the cloud meanwhile',
} as const;

// ── Measurements drawn offline (HYBRID.md "Measurements offline") ───────────────────────────────

/** The cloud's call the router takes a measurement drawn offline up with (API token, as the upload). */
export const OFFLINE_ANNOTATION_UPLOAD_PATH = '/api/router/offline-annotation';

/**
 * One measurement drawn (or deleted) in the offline viewer, as the router sends it: saved on the
 * study's cloud row as the named doctor, with the uid it was drawn with (a repeat replaces it with
 * the same content); `annotation: null` deletes it (one the cloud does not have is already gone).
 */
export const ZOfflineAnnotationUpload = z.object({
  ...OFFLINE_AUTHOR_FIELDS,
  annotationUid: ZAnnotationUid,
  annotation: ZViewerAnnotationInput.nullable(),
});
export type TOfflineAnnotationUpload = z.infer<typeof ZOfflineAnnotationUpload>;

export const ZOfflineAnnotationUploadResult = z.object({ reportStatusId: z.number().int() });
export type TOfflineAnnotationUploadResult = z.infer<typeof ZOfflineAnnotationUploadResult>;

/** Why the cloud keeps none of an offline measurement (403): the router keeps it and stops sending it. */
export const OFFLINE_ANNOTATION_MESSAGES = {
  /** The author may not annotate the study in the cloud (not theirs to read there). */
  notTheAuthors: 'The author may not annotate this study in the cloud',
  /** The cloud's measurement of that uid is another user's. */
  anothersMeasurement: "The cloud holds this measurement as another user's",
} as const;

// ── Resolving a conflict (HYBRID.md "Resolving a conflict") ─────────────────────────────────────

/** The cloud's call that resolves a study held in CONFLICT on the router (API token, as the upload). */
export const OFFLINE_REPORT_RESOLVE_PATH = '/api/router/offline-resolve';

/**
 * KEEP_CLOUD: the router's copy takes the cloud's current text (the offline text stays in the
 * router's journal as history). ADDENDUM: the offline text goes up as an addendum of the cloud's
 * signed-off report (the addendum rules: only the doctor who signed it off), or as a new version of
 * an unsigned one (the save rules: the row must not be held by another doctor).
 */
export const OFFLINE_RESOLUTIONS = ['KEEP_CLOUD', 'ADDENDUM'] as const;
export type TOfflineResolution = (typeof OFFLINE_RESOLUTIONS)[number];

export const ZOfflineResolveUpload = z.object({
  /** The router's id of this resolution: a repeat is answered SAME, the addendum never sent twice. */
  resolutionId: z.uuid(),
  action: z.enum(OFFLINE_RESOLUTIONS),
  ...OFFLINE_AUTHOR_FIELDS,
  /** The offline text (ADDENDUM sends it; KEEP_CLOUD sends it too, unused, for the record). */
  name: ZReportSaveRequest.shape.name,
  content: ZReportSaveRequest.shape.content,
});
export type TOfflineResolveUpload = z.infer<typeof ZOfflineResolveUpload>;

/** The cloud's main report after the resolution: what the router's copy shows from now on. */
export const ZOfflineResolveResult = z.object({
  outcome: z.enum(['SAVED', 'SAME']),
  reportStatusId: z.number().int(),
  name: z.string(),
  content: z.string(),
  /** The main report's newest version (null: the cloud has no report text yet). */
  savedVersion: z.number().int().nullable(),
  signedOff: z.boolean(),
});
export type TOfflineResolveResult = z.infer<typeof ZOfflineResolveResult>;

/** POST /hybrid/resolve on the router. */
export const ZOfflineResolve = z.object({
  studyInstanceUid: ZStudyInstanceUid,
  action: z.enum(OFFLINE_RESOLUTIONS, { message: 'action must be KEEP_CLOUD or ADDENDUM' }),
});
export type TOfflineResolve = z.infer<typeof ZOfflineResolve>;

export const MESSAGE_NOT_IN_CONFLICT =
  'This report is not in conflict, or its resolution is already on its way';

// ── The router's local API for the hybrid screens (apps/router/HYBRID.md) ────────────────────────

/** Ours (the spec lists no hybrid calls): the hybrid list and the offline report of one study. */
export const HYBRID_PATHS = {
  studies: '/hybrid/studies',
  report: '/hybrid/report',
  resolve: '/hybrid/resolve',
  templates: '/hybrid/templates',
  /** GET ?studyInstanceUid=: the versions of a study's offline report the router keeps. */
  versions: '/hybrid/report/versions',
  /**
   * POST: the router-served page's diagnostic viewer reads images with a cookie (HYBRID.md "The
   * diagnostic viewer offline"): this call, with the session's bearer token, sets it.
   */
  viewerSession: '/hybrid/viewer-session',
  /**
   * The measurements drawn in the offline viewer, kept on the router per study: GET
   * ?studyInstanceUid= (the viewer's ZViewerAnnotations, no key images), POST one
   * (ZOfflineAnnotationSave), POST …/delete one (ZOfflineAnnotationRef).
   */
  annotations: '/hybrid/annotations',
  annotationDelete: '/hybrid/annotations/delete',
  /**
   * The signed-in doctor's unsaved text of a study's offline report, kept on the router as the cloud
   * keeps its server draft: GET ?studyInstanceUid= (core ZReportDraft or null), POST one
   * (ZOfflineDraftSave), POST …/delete ({studyInstanceUid}). A save on the router removes it.
   */
  draft: '/hybrid/report/draft',
  draftDelete: '/hybrid/report/draft/delete',
} as const;

/**
 * The cookie that carries the router session to the offline viewer's image reads (GETs under the
 * router's /api/dicomweb only): its image loaders fetch on their own and cannot add a bearer header.
 */
export const ROUTER_VIEWER_COOKIE = 'radflow_router_viewer';

/**
 * The cloud's list of the caller's and the group's report templates (GET, optional modality, bodyPart
 * and gender; the web's template chooser), which the router also reads for a hybrid doctor at their
 * online sign-in (HYBRID.md "Templates offline").
 */
export const REPORT_TEMPLATES_PATH = '/api/report-template/';

/**
 * GET /hybrid/templates: the signed-in hybrid doctor's report templates as the cloud listed them at
 * their last online sign-in on this router (`savedAt`; null and empty when never). The chooser
 * filters them by the study with core `templateFits`, as the cloud does.
 */
export const ZOfflineTemplates = z.object({
  savedAt: z.string().nullable(),
  templates: z.array(ZReportTemplate),
});
export type TOfflineTemplates = z.infer<typeof ZOfflineTemplates>;

/**
 * Where an offline report stands: NONE (nothing written on the router), PENDING (written, waiting
 * for the link), SYNCED (the cloud took every version), CONFLICT (the cloud refused it — reported
 * there meanwhile, or held by another doctor: kept on the router and shown, never overwritten).
 */
export const OFFLINE_REPORT_STATES = ['NONE', 'PENDING', 'SYNCED', 'CONFLICT'] as const;
export type TOfflineReportState = (typeof OFFLINE_REPORT_STATES)[number];

export const MESSAGE_HYBRID_ONLY = 'Offline reporting is for offline-hybrid users';
export const MESSAGE_SIGNED_OFF_OFFLINE =
  'This report was signed off on the router; it goes up when the link returns';
export const MESSAGE_IN_CONFLICT =
  'The cloud refused this report: open the study in the cloud to compare and report it there';

export const ZHybridStudyQuery = z.object({ studyInstanceUid: ZStudyInstanceUid });

/** POST /hybrid/report/draft: the doctor's unsaved text of the study's offline report. */
export const ZOfflineDraftSave = ZReportDraftRequest.extend({ studyInstanceUid: ZStudyInstanceUid });
export type TOfflineDraftSave = z.infer<typeof ZOfflineDraftSave>;

/** POST /hybrid/annotations: a measurement drawn in the offline viewer (created or replaced). */
export const ZOfflineAnnotationSave = z.object({
  studyInstanceUid: ZStudyInstanceUid,
  annotation: ZViewerAnnotationInput,
});
export type TOfflineAnnotationSave = z.infer<typeof ZOfflineAnnotationSave>;

/** POST /hybrid/annotations/delete. */
export const ZOfflineAnnotationRef = z.object({
  studyInstanceUid: ZStudyInstanceUid,
  annotationUid: ZAnnotationUid,
});
export type TOfflineAnnotationRef = z.infer<typeof ZOfflineAnnotationRef>;

/** The measurements the router keeps per study: a bound on one study's journal records. */
export const OFFLINE_ANNOTATIONS_PER_STUDY_MAX = 500;
export const MESSAGE_OFFLINE_ANNOTATIONS_FULL = `The router keeps at most ${OFFLINE_ANNOTATIONS_PER_STUDY_MAX} measurements per study`;
export const MESSAGE_OFFLINE_ANNOTATION_NOT_YOURS = 'Only the doctor who drew this measurement may change it';
export const MESSAGE_OFFLINE_ANNOTATION_NOT_FOUND = 'The router keeps no such measurement';

/** One offline report as the router holds it (the newest version written on the router). */
export const ZOfflineReport = z.object({
  studyInstanceUid: z.string(),
  name: z.string(),
  content: z.string(),
  /** Versions written on the router, 1 up; the editor's next baseLocalVersion. */
  localVersion: z.number().int(),
  signedOff: z.boolean(),
  state: z.enum(OFFLINE_REPORT_STATES),
  /** Why the cloud refused it (CONFLICT). */
  reason: z.string().nullable(),
  authorEmail: z.string(),
  authorName: z.string(),
  writtenAt: z.string(),
  /** The cloud's row of the study, once a version went up (the same row on both sides). */
  reportStatusId: z.number().int().nullable(),
  /** The cloud's version of the newest write taken up. */
  cloudVersion: z.number().int().nullable(),
  /** The last resolution chosen for a conflict: QUEUED until the cloud answers, then DONE. */
  resolution: z
    .object({ action: z.enum(OFFLINE_RESOLUTIONS), state: z.enum(['QUEUED', 'DONE']), at: z.string() })
    .nullable(),
});
export type TOfflineReport = z.infer<typeof ZOfflineReport>;

/**
 * Where a version kept on the router stands: written here and not taken by the cloud yet, taken by
 * it, the cloud's own text a conflict's resolution brought here, or an offline text that resolution
 * set aside (kept, never sent).
 */
export const OFFLINE_VERSION_STATES = ['WAITING', 'IN_CLOUD', 'FROM_CLOUD', 'SET_ASIDE'] as const;
export type TOfflineVersionState = (typeof OFFLINE_VERSION_STATES)[number];

/** One version of GET /hybrid/report/versions, oldest first. */
export const ZOfflineVersion = z.object({
  localVersion: z.number().int(),
  name: z.string(),
  content: z.string(),
  signedOff: z.boolean(),
  authorEmail: z.string(),
  authorName: z.string(),
  writtenAt: z.string(),
  state: z.enum(OFFLINE_VERSION_STATES),
  /** The cloud's version number, once it took this one. */
  cloudVersion: z.number().int().nullable(),
});
export type TOfflineVersion = z.infer<typeof ZOfflineVersion>;
export const ZOfflineVersions = z.array(ZOfflineVersion);

/** POST /hybrid/report: one offline save (as the cloud's save call: name, content, signOff). */
export const ZOfflineReportSave = ZReportSaveRequest.pick({
  name: true,
  content: true,
  signOff: true,
}).extend({
  studyInstanceUid: ZStudyInstanceUid,
  /** The router version the text started from (null: none written); another is 409 as in the cloud. */
  baseLocalVersion: z.number().int().min(1).nullable(),
});
export type TOfflineReportSave = z.infer<typeof ZOfflineReportSave>;

/** A row of the hybrid study list: a study the router holds, and its offline report. */
export const ZHybridStudy = z.object({
  studyInstanceUid: z.string(),
  /** The cloud's row id once known (null while only the router knows the study). */
  reportStatusId: z.number().int().nullable(),
  patientName: z.string().nullable(),
  patientId: z.string().nullable(),
  patientSex: z.string().nullable(),
  /** DICOM AS, as in the pending case (local-api.ts). */
  patientAge: z.string().nullable(),
  modality: z.string().nullable(),
  studyDate: z.string().nullable(),
  studyDescription: z.string().nullable(),
  urgent: z.boolean(),
  receivedAt: z.string(),
  images: z.number().int(),
  /** Every image is in the cloud. */
  uploaded: z.boolean(),
  report: ZOfflineReport.nullable(),
});
export type THybridStudy = z.infer<typeof ZHybridStudy>;
export const ZHybridStudies = z.array(ZHybridStudy);
