import { z } from 'zod';
import { REPORT_STATUSES } from '../worklist/statuses.js';

/*
 * The viewer's API (issue 5; spec-core §2 Viewer entry, §4 Viewer payment, §5 upload messages, §7
 * GET /customer-report/share-info; spec-lab §3 series mapping). Shared by the server's routes and
 * the web's query hooks (apps/web/src/features/viewer/viewer-api.ts).
 */

/** The report row id of `/api/viewer/:id/...` (an int4 key). */
export const ZViewerIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Cornerstone's annotationUID as the viewer sends it: 1–64 characters of [A-Za-z0-9._-]. */
export const ZAnnotationUid = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'annotationUid must be 1-64 characters of A-Z, a-z, 0-9, ".", "_", "-"');

export const ZViewerAnnotationParams = ZViewerIdParams.extend({ annotationUid: ZAnnotationUid });

/** A DICOM UID as it travels (the archive accepts what the modality sent, up to 128 characters). */
const ZUid = z.string().min(1).max(128);

/** 1-based frame number of a (multi-frame) instance. */
const ZFrameNumber = z.number().int().min(1).max(1_000_000);

/** The tools whose drawings are saved (spec-core §2 keys l, e, a, y). */
export const VIEWER_ANNOTATION_TOOLS = ['Length', 'EllipticalROI', 'Angle', 'ArrowAnnotate'] as const;
export type TViewerAnnotationTool = (typeof VIEWER_ANNOTATION_TOOLS)[number];

/** Largest `data` of one annotation, as JSON text: a drawing is a few handles and a label. */
export const VIEWER_ANNOTATION_DATA_MAX_BYTES = 32 * 1024;

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** The annotation's serialisable part (handles' points, label/text, optional cachedStats). */
export const ZViewerAnnotationData = z
  .record(z.string(), z.unknown())
  .refine((data) => jsonBytes(data) <= VIEWER_ANNOTATION_DATA_MAX_BYTES, {
    message: `data is larger than ${VIEWER_ANNOTATION_DATA_MAX_BYTES / 1024} KB`,
  });

/** What the viewer saves (PUT /api/viewer/:id/annotations/:annotationUid). */
export const ZViewerAnnotationInput = z.object({
  annotationUid: ZAnnotationUid,
  toolName: z.enum(VIEWER_ANNOTATION_TOOLS),
  seriesInstanceUid: ZUid,
  sopInstanceUid: ZUid,
  frameNumber: ZFrameNumber,
  data: ZViewerAnnotationData,
});
export type TViewerAnnotationInput = z.infer<typeof ZViewerAnnotationInput>;

/** A saved annotation; the server sets who drew it and when. */
export const ZViewerAnnotation = ZViewerAnnotationInput.extend({
  createdBy: z.string().optional(),
  createdAt: z.string().optional(),
}).meta({ id: 'ViewerAnnotation' });
export type TViewerAnnotation = z.infer<typeof ZViewerAnnotation>;

/** POST /api/viewer/:id/key-images. */
export const ZKeyImageInput = z.object({
  seriesInstanceUid: ZUid,
  sopInstanceUid: ZUid,
  frameNumber: ZFrameNumber,
});
export type TKeyImageInput = z.infer<typeof ZKeyImageInput>;

export const ZKeyImage = ZKeyImageInput.extend({
  createdBy: z.string().optional(),
  createdAt: z.string().optional(),
}).meta({ id: 'ViewerKeyImage' });
export type TKeyImage = z.infer<typeof ZKeyImage>;

/** DELETE /api/viewer/:id/key-images?sopInstanceUid=…&frameNumber=… */
export const ZUnmarkKeyImageQuery = z.object({
  sopInstanceUid: ZUid,
  frameNumber: z.coerce.number().int().min(1).max(1_000_000),
});

/** GET /api/viewer/:id/annotations. */
export const ZViewerAnnotations = z
  .object({ annotations: z.array(ZViewerAnnotation), keyImages: z.array(ZKeyImage) })
  .meta({ id: 'ViewerAnnotations' });
export type TViewerAnnotations = z.infer<typeof ZViewerAnnotations>;

/** Whether the images have arrived (see `uploadStateOf`). */
export const UPLOAD_STATES = ['NONE', 'PARTIAL', 'COMPLETE'] as const;
export type TUploadState = (typeof UPLOAD_STATES)[number];

/** spec-lab §3 series mapping: a series description shown under another name. */
export const ZSeriesNameMapping = z.object({ seriesName: z.string(), preferredName: z.string() });
export type TSeriesNameMapping = z.infer<typeof ZSeriesNameMapping>;

export const ZViewerEntry = z.object({ allowed: z.boolean(), message: z.string().optional() });
export type TViewerEntry = z.infer<typeof ZViewerEntry>;

/** GET /api/viewer/:id/context: what the viewer needs before it loads an image. */
export const ZViewerContext = z
  .object({
    id: z.number().int(),
    studyInstanceUid: z.string(),
    apiVersion: z.number().int(),
    patientName: z.string(),
    patientId: z.string(),
    patientSex: z.string(),
    patientAge: z.string(),
    /** DICOM DA (YYYYMMDD) as received, '' when absent. */
    studyDate: z.string(),
    studyDescription: z.string(),
    modalities: z.array(z.string()),
    status: z.enum(REPORT_STATUSES),
    deleted: z.boolean(),
    upload: z.enum(UPLOAD_STATES),
    entry: ZViewerEntry,
    seriesNames: z.array(ZSeriesNameMapping),
    canAnnotate: z.boolean(),
    openInWeasis: z.boolean(),
  })
  .meta({ id: 'ViewerContext' });
export type TViewerContext = z.infer<typeof ZViewerContext>;

/** The patient fields a prior is compared on. */
export const VIEWER_PRIOR_DIFFERENCES = ['patientName', 'patientBirthDate'] as const;
export type TViewerPriorDifference = (typeof VIEWER_PRIOR_DIFFERENCES)[number];

/** One earlier (or later) study of the same patient (GET /api/viewer/:id/priors). */
export const ZViewerPrior = z.object({
  id: z.number().int(),
  studyInstanceUid: z.string(),
  apiVersion: z.number().int(),
  studyDate: z.string(),
  studyTime: z.string(),
  modalities: z.array(z.string()),
  studyDescription: z.string(),
  instanceCount: z.number().int(),
  status: z.enum(REPORT_STATUSES),
  /** The prior's patient as its row and files say (the warning shows them). */
  patientName: z.string(),
  /** DICOM DA, '' when unknown. */
  patientBirthDate: z.string(),
  /**
   * What differs from the current study's patient although id and issuer match (issue 21 §8): a
   * warning that this may be another person. Empty when both agree or one side is unknown.
   */
  differs: z.array(z.enum(VIEWER_PRIOR_DIFFERENCES)),
});
export type TViewerPrior = z.infer<typeof ZViewerPrior>;

export const ZViewerPriors = z.object({ priors: z.array(ZViewerPrior) }).meta({ id: 'ViewerPriors' });
export type TViewerPriors = z.infer<typeof ZViewerPriors>;

/** The most priors listed. */
export const VIEWER_PRIORS_LIMIT = 20;

/** GET /api/viewer/:id/weasis. */
export const ZWeasisLaunch = z.object({ launchUrl: z.string() }).meta({ id: 'WeasisLaunch' });
export type TWeasisLaunch = z.infer<typeof ZWeasisLaunch>;

/** The manifest's token in GET /api/viewer/weasis-manifest/:token. */
export const ZWeasisManifestParams = z.object({ token: z.string().min(1).max(512) });

/** GET /api/customer-report/share-info (spec-core §7, §4 Viewer payment). */
export const ZShareInfo = z
  .object({ paymentNotDone: z.boolean(), paymentPolling: z.boolean() })
  .meta({ id: 'ShareInfo' });
export type TShareInfo = z.infer<typeof ZShareInfo>;

/** How often the open viewer says the user is still there (POST /api/viewer/:id/activity). */
export const VIEWER_HEARTBEAT_MS = 60_000;

/** spec-core §6: assignors with showActiveInViewer see the top 3 recently active viewer users. */
export const ACTIVE_IN_VIEWER_LIMIT = 3;

/** POST /api/viewer/active-users: the report rows of the list page on screen. */
export const ZActiveInViewerRequest = z.object({
  ids: z.array(z.number().int().positive().max(2_147_483_647)).max(100),
});
export type TActiveInViewerRequest = z.infer<typeof ZActiveInViewerRequest>;

/** spec-lab §3 Viewer activity: userEmail, lastActive (an ISO instant). */
export const ZViewerActivity = z.object({ userEmail: z.string(), lastActive: z.string() });
export type TViewerActivity = z.infer<typeof ZViewerActivity>;

/**
 * `enabled`: the group's showActiveInViewer (assignors' sessions do not load the group preferences,
 * spec-core §4, so the answer says whether to show the column). `activeUsers`: per report row id (as
 * a string key), its most recent viewer users, newest first; rows without any are left out.
 */
export const ZActiveInViewer = z
  .object({ enabled: z.boolean(), activeUsers: z.record(z.string(), z.array(ZViewerActivity)) })
  .meta({ id: 'ActiveInViewer' });
export type TActiveInViewer = z.infer<typeof ZActiveInViewer>;
