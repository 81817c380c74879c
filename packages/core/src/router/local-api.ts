import { z } from 'zod';
import { ZStudyInstanceUid } from '../dicom/uid-schema.js';
import { FORWARD_INSTANCE_STATUSES, FORWARD_STATUSES } from '../forwarding/schemas.js';

/**
 * The router's local API (spec-core §7 'Local router'): the contract between the router program at a
 * center and the web app's /pacs-router screen, so both sides parse the same shapes.
 */

/** spec-core §9 'Router': pending cases and info refresh every 30 s. */
export const ROUTER_REFRESH_MS = 30_000;
/** spec-core §9 'Router': version check every 10 minutes. */
export const ROUTER_VERSION_CHECK_MS = 600_000;
/** spec-core §9 'Router': event throttle 10 s (a burst of queue events refreshes the screen once). */
export const ROUTER_EVENT_THROTTLE_MS = 10_000;
/** Ours: the port the router listens on unless the group's customRouterUrl says otherwise. */
export const ROUTER_DEFAULT_PORT = 8090;

/** The 14 calls and the event stream of spec-core §7 'Local router', by the spec's paths. */
export const ROUTER_PATHS = {
  sendJobGet: '/send-job/get',
  sendJobRun: '/send-job/run',
  imagePrint: '/router/image/print',
  login: '/login',
  pendingCases: '/upload/pending-cases',
  info: '/get-info',
  logout: '/logout',
  deleteUploadedStudy: '/delete-uploaded-study',
  uploadFile: '/upload-file',
  uploadZip: '/upload-zip',
  settings: '/setting/get',
  checkVersion: '/app/check-version',
  update: '/app/update',
  events: '/events',
} as const;

/**
 * Ours: the one retry call the screen's Retry button needs (issue 27 §2 "errors with their reasons
 * and a retry"); the spec lists no such call, so it is named apart from the spec's 14.
 */
export const ROUTER_RETRY_PATH = '/upload/retry';

/** The query parameter that carries the router session on /events (EventSource cannot set headers). */
export const ROUTER_EVENTS_SESSION_PARAM = 'session';

/** POST /login answers the router session the browser then sends as a bearer token. */
export const ZRouterLoginAnswer = z.object({
  token: z.string(),
  email: z.string(),
  identifier: z.string(),
  hybrid: z.boolean().optional(),
  expiresAt: z.string(),
});
export type TRouterLoginAnswer = z.infer<typeof ZRouterLoginAnswer>;

export const ZRouterUser = z.object({
  email: z.string(),
  identifier: z.string(),
  /** A hybridModeOn user (issue 27 §4): may use the router's hybrid list and offline reports. */
  hybrid: z.boolean().optional(),
});
export type TRouterUser = z.infer<typeof ZRouterUser>;

/** GET /get-info: who the router is, whom it serves, how its queue stands. */
export const ZRouterInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** The cloud it uploads to. */
  serverUrl: z.string(),
  startedAt: z.string(),
  /** The signed-in user of the asking session, null without one. */
  user: ZRouterUser.nullable(),
  queue: z.object({
    studies: z.number().int(),
    instances: z.number().int(),
    sent: z.number().int(),
    failedStudies: z.number().int(),
  }),
});
export type TRouterInfo = z.infer<typeof ZRouterInfo>;

/**
 * Where a study stands in the router's upload queue: QUEUED (waiting its turn or the upload hours),
 * UPLOADING (a batch in flight), WAITING (a transient failure, retried by itself at retryAt), FAILED
 * (the cloud refused an instance: held until a retry), DONE (every instance confirmed by the cloud).
 */
export const PENDING_CASE_STATES = ['QUEUED', 'UPLOADING', 'WAITING', 'FAILED', 'DONE'] as const;
export type TPendingCaseState = (typeof PENDING_CASE_STATES)[number];

/** spec-core §3 'Pending upload case': instances (sent flag), total, sent — one per study. */
export const ZPendingCase = z.object({
  studyInstanceUid: z.string(),
  patientName: z.string().nullable(),
  patientId: z.string().nullable(),
  patientSex: z.string().nullable(),
  /** DICOM AS ('045Y'): the instance's own, or computed from the birth date at the study date. */
  patientAge: z.string().nullable(),
  modality: z.string().nullable(),
  studyDate: z.string().nullable(),
  studyDescription: z.string().nullable(),
  urgent: z.boolean(),
  queuedAt: z.string(),
  state: z.enum(PENDING_CASE_STATES),
  instances: z.array(
    z.object({
      sopInstanceUid: z.string(),
      seriesInstanceUid: z.string(),
      sent: z.boolean(),
      /** The last failure's reason while not sent. */
      error: z.string().optional(),
    }),
  ),
  total: z.number().int(),
  sent: z.number().int(),
  /** The newest failure's reason among the unsent instances, null when none failed. */
  error: z.string().nullable(),
  /** The next automatic attempt while WAITING. */
  retryAt: z.string().nullable(),
});
export type TPendingCase = z.infer<typeof ZPendingCase>;

export const ZPendingCases = z.array(ZPendingCase);

export const ZStudyUidRequest = z.object({ studyInstanceUid: ZStudyInstanceUid });
export type TStudyUidRequest = z.infer<typeof ZStudyUidRequest>;

/** POST /upload-file and /upload-zip answer what went into the queue. */
export const ZUploadAnswer = z.object({
  /** Files that went into the queue (a repeat of a queued instance is acknowledged, not doubled). */
  queued: z.number().int(),
  studyInstanceUids: z.array(z.string()),
  /** Zip entries that were not DICOM files, by name. */
  skipped: z.array(z.string()),
});
export type TUploadAnswer = z.infer<typeof ZUploadAnswer>;

/** POST /send-job/get {studyIds}. */
export const ZSendJobGetRequest = z.object({
  studyIds: z.array(ZStudyInstanceUid).min(1, 'studyIds must name a study').max(100, 'At most 100 studyIds'),
});
export type TSendJobGetRequest = z.infer<typeof ZSendJobGetRequest>;

/** POST /send-job/run {studyId, reportStatusId, aeTitle, destination, createdAt, userEmail}. */
export const ZSendJobRunRequest = z.object({
  studyId: ZStudyInstanceUid,
  reportStatusId: z.coerce.number().int().positive('reportStatusId must be a positive number'),
  aeTitle: z
    .string()
    .trim()
    .min(1, 'aeTitle is required')
    .max(16, 'aeTitle is at most 16 characters')
    .regex(/^[\x20-\x5b\x5d-\x7e]+$/, 'aeTitle must be printable ASCII without a backslash'),
  /** "host:port" of the PACS on the center's network. */
  destination: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'destination must be host:port'),
  createdAt: z.string().min(1, 'createdAt is required'),
  userEmail: z.string().trim().min(1, 'userEmail is required'),
});
export type TSendJobRunRequest = z.infer<typeof ZSendJobRunRequest>;

/** spec-core §3 'Router-send record': studyInstanceId, status, aeTitle, destination, instanceSendStatuses. */
export const ZRouterSendRecord = z.object({
  studyInstanceId: z.string(),
  status: z.enum(FORWARD_STATUSES),
  aeTitle: z.string(),
  destination: z.string(),
  instanceSendStatuses: z.array(
    z.object({ sopInstanceUid: z.string(), status: z.enum(FORWARD_INSTANCE_STATUSES) }),
  ),
});
export type TRouterSendRecord = z.infer<typeof ZRouterSendRecord>;
export const ZRouterSendRecords = z.array(ZRouterSendRecord);

/** POST /router/image/print answers the print job it started. */
export const ZPrintAnswer = z.object({
  jobId: z.string(),
  status: z.enum(['QUEUED', 'PRINTED', 'FAILED']),
  error: z.string().nullable(),
});
export type TPrintAnswer = z.infer<typeof ZPrintAnswer>;

/** GET /setting/get: the router's settings as name → value (secrets are never included). */
export const ZRouterSettings = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type TRouterSettings = z.infer<typeof ZRouterSettings>;

/** GET /app/check-version. */
export const ZRouterVersionCheck = z.object({
  currentVersion: z.string(),
  latestVersion: z.string().nullable(),
  updateAvailable: z.boolean(),
  /** What the new version brings, when the release says. */
  notes: z.string().nullable(),
});
export type TRouterVersionCheck = z.infer<typeof ZRouterVersionCheck>;

/** POST /app/update: the update was accepted and runs; the router restarts into the new version. */
export const ZRouterUpdateAnswer = z.object({
  status: z.enum(['STARTED', 'UP_TO_DATE']),
  version: z.string().nullable(),
});
export type TRouterUpdateAnswer = z.infer<typeof ZRouterUpdateAnswer>;

/** What the /events stream says. Each message's data is one JSON event. */
export const ROUTER_EVENT_TYPES = [
  /** The stream is open (first message). */
  'hello',
  /** An instance arrived and is on the router's disk. */
  'queued',
  /** An instance reached the cloud. */
  'sent',
  /** A study's upload attempt failed; `error` says why. */
  'failed',
  /** Every instance of the study is in the cloud. */
  'uploaded',
  /** A failed study's upload is tried again (Retry). */
  'retry',
  /** An uploaded study was deleted from the router. */
  'deleted',
  /** The router's disk passed its alarm threshold (issue 27 §1 'a clear alarm before it fills'). */
  'disk-alarm',
  /** A send-job (forward to a local PACS) changed. */
  'send-job',
] as const;
export type TRouterEventType = (typeof ROUTER_EVENT_TYPES)[number];

export const ZRouterEvent = z.object({
  type: z.enum(ROUTER_EVENT_TYPES),
  studyInstanceUid: z.string().nullable(),
  error: z.string().nullable().optional(),
  at: z.string(),
});
export type TRouterEvent = z.infer<typeof ZRouterEvent>;

/**
 * The router's base address for the browser (spec-core §7 "configurable base address"): the group
 * setting customRouterUrl — "the address of the router program at the centers" — when it is an
 * http(s) URL, else http://localhost:ROUTER_DEFAULT_PORT.
 *
 * The user's proxyUrl is not used: spec-core §4 'Zip download' gives it another job (a prefix for
 * zip links), and a router address there would send every zip download to the router.
 */
export function routerBaseUrl(flags: { customRouterUrl?: string | null }): string {
  const custom = flags.customRouterUrl?.trim();
  if (custom) {
    try {
      const url = new URL(custom);
      if (url.protocol === 'http:' || url.protocol === 'https:') {
        return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
      }
    } catch {
      // An unusable setting falls back to the default below, as an empty one does.
    }
  }
  return `http://localhost:${ROUTER_DEFAULT_PORT}`;
}
