import {
  HYBRID_PATHS,
  ZHybridStudies,
  ZOfflineReport,
  ZOfflineTemplates,
  ZOfflineVersions,
  ZReportDraft,
  ZViewerAnnotation,
  ZViewerAnnotations,
  type THybridStudy,
  type TOfflineAnnotationRef,
  type TOfflineAnnotationSave,
  type TOfflineDraftSave,
  type TOfflineReport,
  type TOfflineReportSave,
  type TOfflineResolve,
  type TOfflineTemplates,
  type TOfflineVersion,
  ROUTER_EVENTS_SESSION_PARAM,
  ROUTER_PATHS,
  ROUTER_RETRY_PATH,
  ZPendingCases,
  ZRouterEvent,
  ZRouterInfo,
  ZRouterLoginAnswer,
  ZRouterSendRecords,
  ZRouterSettings,
  ZRouterUpdateAnswer,
  ZRouterVersionCheck,
  ZUploadAnswer,
  formatErrorMessage,
  type TPendingCase,
  type TRouterEvent,
  type TRouterInfo,
  type TRouterLoginAnswer,
  type TRouterSendRecord,
  type TRouterSettings,
  type TRouterUpdateAnswer,
  type TRouterVersionCheck,
  type TReportDraft,
  type TUploadAnswer,
  type TViewerAnnotation,
  type TViewerAnnotations,
} from '@radflow/core';
import type { TSchema } from '../../api/client';
import type { TDicomJson } from '../viewer/data-source/dicom-json';
import { deviceHeaders } from '../../api/device';

export const MESSAGE_ROUTER_UNREACHABLE = 'The router could not be reached. Is it running on this computer?';

/** A failed router call: its HTTP status (0: unreachable) and the spec-core §8 message. */
export class RouterError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RouterError';
  }
}

export interface TRouterEventHandlers {
  onOpen: () => void;
  onError: () => void;
  onEvent: (event: TRouterEvent) => void;
}

/**
 * The web app's one way to the router's local API (spec-core §7 'Local router'). The screen talks to
 * this interface only, so its tests use a fake of it.
 */
export interface RouterClient {
  readonly baseUrl: string;
  /** Whether a router session is held (it may still have ended on the router: info says). */
  hasSession(): boolean;
  info(): Promise<TRouterInfo>;
  login(credentials: { email: string; password: string }): Promise<TRouterLoginAnswer>;
  logout(): Promise<void>;
  /** Forgets the held session (the router no longer knows it). */
  forgetSession(): void;
  pendingCases(): Promise<TPendingCase[]>;
  retry(studyInstanceUid: string): Promise<void>;
  deleteUploadedStudy(studyInstanceUid: string): Promise<void>;
  uploadFile(file: File): Promise<TUploadAnswer>;
  uploadZip(file: File): Promise<TUploadAnswer>;
  sendJobs(studyIds: readonly string[]): Promise<TRouterSendRecord[]>;
  settings(): Promise<TRouterSettings>;
  checkVersion(): Promise<TRouterVersionCheck>;
  update(): Promise<TRouterUpdateAnswer>;
  /** Opens /events; returns the close. */
  openEvents(handlers: TRouterEventHandlers): () => void;
  /** The hybrid list (issue 27 §4, apps/router/HYBRID.md): the router's studies and offline reports. */
  hybridStudies(): Promise<THybridStudy[]>;
  /** One offline save; durable on the router when it resolves. */
  saveOfflineReport(save: TOfflineReportSave): Promise<TOfflineReport>;
  /** A choice for a report in conflict; durable on the router, sent when the link allows. */
  resolveOfflineConflict(choice: TOfflineResolve): Promise<TOfflineReport>;
  /** The signed-in doctor's report templates as kept at their last online sign-in (HYBRID.md). */
  hybridTemplates(): Promise<TOfflineTemplates>;
  /** The versions of a study's offline report the router keeps, oldest first. */
  offlineVersions(studyInstanceUid: string): Promise<TOfflineVersion[]>;
  /** The signed-in user's unsaved text of a study's offline report, kept on the router, or null. */
  offlineDraft(studyInstanceUid: string): Promise<TReportDraft | null>;
  saveOfflineDraft(save: TOfflineDraftSave): Promise<TReportDraft>;
  deleteOfflineDraft(studyInstanceUid: string): Promise<void>;
  /** The measurements drawn in the offline viewer on a study, kept on the router. */
  offlineAnnotations(studyInstanceUid: string): Promise<TViewerAnnotations>;
  /** Creates or replaces one; durable on the router when it resolves. */
  saveOfflineAnnotation(save: TOfflineAnnotationSave): Promise<TViewerAnnotation>;
  deleteOfflineAnnotation(ref: TOfflineAnnotationRef): Promise<void>;
  /** A QIDO-RS / WADO-RS metadata read of the router's DICOMweb (the offline viewer; 204: none). */
  dicomJson(url: string): Promise<TDicomJson[]>;
  /** A rendered frame or thumbnail of the router's DICOMweb (an `<img>` cannot send the session). */
  image(url: string): Promise<Blob>;
  /**
   * Trades the session for the router's viewer cookie, which its image reads only accept (HYBRID.md
   * "The diagnostic viewer offline"): for the page the router itself serves, same origin.
   */
  openViewerSession(): Promise<void>;
}

/** The router's hybrid study list and its info, cached per router address (the list and the viewer). */
export const hybridStudiesQueryKey = (baseUrl: string) => ['hybrid-studies', baseUrl] as const;
export const routerInfoQueryKey = (baseUrl: string) => ['router-info', baseUrl] as const;

/** Where the router session lives: per router address, across tabs, until sign-out. */
const sessionKey = (baseUrl: string) => `radflow.routerSession:${baseUrl}`;

export function createRouterClient(baseUrl: string, storage: Storage = window.localStorage): RouterClient {
  const token = () => storage.getItem(sessionKey(baseUrl));
  const setToken = (value: string | null) =>
    value ? storage.setItem(sessionKey(baseUrl), value) : storage.removeItem(sessionKey(baseUrl));

  async function call<T>(
    path: string,
    schema: TSchema<T> | null,
    init: { method?: 'GET' | 'POST'; json?: unknown; form?: FormData; takeCookie?: boolean } = {},
  ): Promise<T> {
    const headers = new Headers(deviceHeaders());
    const session = token();
    if (session) headers.set('Authorization', `Bearer ${session}`);
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    } else if (init.form) {
      body = init.form;
    }
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        // The router session is a bearer token: no credentials cross to localhost. The one cookie,
        // the viewer's, is taken on the router's own page (same origin), where it is needed.
        credentials: init.takeCookie ? 'same-origin' : 'omit',
      });
    } catch {
      throw new RouterError(0, MESSAGE_ROUTER_UNREACHABLE);
    }
    const payload: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      if (response.status === 401) setToken(null);
      throw new RouterError(response.status, formatErrorMessage(payload));
    }
    if (!schema) return payload as T;
    const parsed = schema.safeParse(payload);
    if (!parsed.success)
      throw new RouterError(response.status, `Unexpected answer from the router (${path})`);
    return parsed.data;
  }

  /** A DICOMweb read of the router with the session: the viewer's URLs are absolute. */
  async function read(url: string, accept: string): Promise<Response> {
    const headers = new Headers({ Accept: accept });
    const session = token();
    if (session) headers.set('Authorization', `Bearer ${session}`);
    let response: Response;
    try {
      response = await fetch(url, { headers, credentials: 'omit' });
    } catch {
      throw new RouterError(0, MESSAGE_ROUTER_UNREACHABLE);
    }
    if (!response.ok) {
      if (response.status === 401) setToken(null);
      throw new RouterError(response.status, formatErrorMessage(await response.json().catch(() => null)));
    }
    return response;
  }

  const fileForm = (file: File) => {
    const form = new FormData();
    form.set('file', file, file.name);
    return form;
  };

  return {
    baseUrl,
    hasSession: () => token() !== null,
    info: () => call(ROUTER_PATHS.info, ZRouterInfo),
    async login({ email, password }) {
      const form = new FormData();
      form.set('email', email);
      form.set('password', password);
      const answer = await call(ROUTER_PATHS.login, ZRouterLoginAnswer, { form });
      setToken(answer.token);
      return answer;
    },
    async logout() {
      try {
        await call(ROUTER_PATHS.logout, null, { method: 'POST' });
      } finally {
        setToken(null);
      }
    },
    forgetSession: () => setToken(null),
    pendingCases: () => call(ROUTER_PATHS.pendingCases, ZPendingCases),
    retry: async (studyInstanceUid) => {
      await call(ROUTER_RETRY_PATH, null, { json: { studyInstanceUid } });
    },
    deleteUploadedStudy: async (studyInstanceUid) => {
      await call(ROUTER_PATHS.deleteUploadedStudy, null, { json: { studyInstanceUid } });
    },
    uploadFile: (file) => call(ROUTER_PATHS.uploadFile, ZUploadAnswer, { form: fileForm(file) }),
    uploadZip: (file) => call(ROUTER_PATHS.uploadZip, ZUploadAnswer, { form: fileForm(file) }),
    sendJobs: (studyIds) => call(ROUTER_PATHS.sendJobGet, ZRouterSendRecords, { json: { studyIds } }),
    settings: () => call(ROUTER_PATHS.settings, ZRouterSettings),
    checkVersion: () => call(ROUTER_PATHS.checkVersion, ZRouterVersionCheck),
    update: () => call(ROUTER_PATHS.update, ZRouterUpdateAnswer, { method: 'POST' }),
    hybridStudies: () => call(HYBRID_PATHS.studies, ZHybridStudies),
    saveOfflineReport: (save) => call(HYBRID_PATHS.report, ZOfflineReport, { json: save }),
    resolveOfflineConflict: (choice) => call(HYBRID_PATHS.resolve, ZOfflineReport, { json: choice }),
    hybridTemplates: () => call(HYBRID_PATHS.templates, ZOfflineTemplates),
    offlineVersions: (studyInstanceUid) =>
      call(
        `${HYBRID_PATHS.versions}?${new URLSearchParams({ studyInstanceUid }).toString()}`,
        ZOfflineVersions,
      ),
    offlineDraft: (studyInstanceUid) =>
      call(
        `${HYBRID_PATHS.draft}?${new URLSearchParams({ studyInstanceUid }).toString()}`,
        ZReportDraft.nullable(),
      ),
    saveOfflineDraft: (save) => call(HYBRID_PATHS.draft, ZReportDraft, { json: save }),
    deleteOfflineDraft: async (studyInstanceUid) => {
      await call(HYBRID_PATHS.draftDelete, null, { json: { studyInstanceUid } });
    },
    offlineAnnotations: (studyInstanceUid) =>
      call(
        `${HYBRID_PATHS.annotations}?${new URLSearchParams({ studyInstanceUid }).toString()}`,
        ZViewerAnnotations,
      ),
    saveOfflineAnnotation: (save) => call(HYBRID_PATHS.annotations, ZViewerAnnotation, { json: save }),
    deleteOfflineAnnotation: async (ref) => {
      await call(HYBRID_PATHS.annotationDelete, null, { json: ref });
    },
    async dicomJson(url) {
      const response = await read(url, 'application/dicom+json');
      return response.status === 204 ? [] : ((await response.json()) as TDicomJson[]);
    },
    image: async (url) => (await read(url, 'image/jpeg')).blob(),
    openViewerSession: async () => {
      await call(HYBRID_PATHS.viewerSession, null, { method: 'POST', takeCookie: true });
    },
    openEvents({ onOpen, onError, onEvent }) {
      // EventSource cannot send headers: the session goes in the query (the router's API.md).
      const url = new URL(`${baseUrl}${ROUTER_PATHS.events}`);
      url.searchParams.set(ROUTER_EVENTS_SESSION_PARAM, token() ?? '');
      const source = new EventSource(url);
      source.onopen = onOpen;
      source.onerror = onError;
      source.onmessage = (message: MessageEvent<string>) => {
        try {
          const parsed = ZRouterEvent.safeParse(JSON.parse(message.data));
          if (parsed.success) onEvent(parsed.data);
        } catch {
          // A message we cannot read is skipped; the 30 s refresh still catches up.
        }
      };
      return () => source.close();
    },
  };
}
