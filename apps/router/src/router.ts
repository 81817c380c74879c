/**
 * The router's parts put together (ROUTER.md "How the parts are wired"): the durable queue, the
 * C-STORE SCP that fills it, the uploader that drains it to the cloud, send-jobs to the center's
 * PACS, the printer, the updater and the local API the browser calls. main.ts runs it as a program;
 * tests start it in process.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { StoreScp } from '@radflow/dicom/dimse';
import { createCloudLogin } from './api/cloud-login.js';
import { OfflineCredentials, withOfflineSignIn } from './api/offline-sign-in.js';
import { startLocalApi } from './api/local-api.js';
import { uploadQueueOf } from './api/queue-adapter.js';
import { settingsOf } from './api/settings.js';
import type { TRouterConfig } from './config.js';
import { CloudStudySource } from './forward/cloud-source.js';
import { QueueStudySource } from './forward/local-study-source.js';
import { SendJobs } from './forward/send-jobs.js';
import { FirstStudySource } from './forward/study-source.js';
import { hybridReportsOf } from './hybrid/hybrid-reports.js';
import { OfflineAnnotationStore } from './hybrid/annotation-store.js';
import { OfflineDraftStore } from './hybrid/draft-store.js';
import { OfflineReportStore } from './hybrid/report-store.js';
import { ReportSync } from './hybrid/report-sync.js';
import { SpoolImages } from './hybrid/spool-images.js';
import { printerFromSetting } from './print/printer-setting.js';
import { InstanceQueue } from './queue/queue.js';
import { startDicomReceiver } from './receive/dicom-receiver.js';
import {
  createRouterUpdater,
  RESTART_EXIT_CODE,
  ROUTER_VERSION,
  type RouterUpdater,
  type TUpdaterOptions,
} from './release/index.js';
import { Uploader } from './upload/uploader.js';
import { CloudSettings } from './cloud-settings.js';
import { cloudFetcher, printerPort, releasesPort, sendJobsPort } from './wiring.js';

export interface RunningRouter {
  readonly config: TRouterConfig;
  readonly queue: InstanceQueue;
  readonly uploader: Uploader;
  readonly scp: StoreScp;
  readonly sendJobs: SendJobs;
  readonly updater: RouterUpdater;
  /** Reports written offline by hybrid users, and their way up to the cloud (HYBRID.md). */
  readonly offlineReports: OfflineReportStore;
  readonly reportSync: ReportSync;
  /** The local API, listening on 127.0.0.1. */
  readonly api: { readonly app: FastifyInstance; readonly url: string; readonly port: number };
  stop(): Promise<void>;
}

export type RouterLog = (message: string, fields?: Record<string, unknown>) => void;

export interface StartRouterOptions {
  /** The updater's settings a test or bench replaces (release keys, self-test, restart). */
  readonly updater?: Partial<TUpdaterOptions>;
}

export async function startRouter(
  config: TRouterConfig,
  log: RouterLog = () => undefined,
  options: StartRouterOptions = {},
): Promise<RunningRouter> {
  // Every later step undoes the earlier ones when it fails, so a failed start holds no port or file.
  const undo: (() => Promise<unknown>)[] = [];
  const unwind = async () => {
    for (const step of undo.reverse()) await step().catch(() => undefined);
  };
  const quotaBytes = Math.round(config.ROUTER_DISK_QUOTA_MB * 1024 * 1024);
  const queue = await InstanceQueue.open({
    dataDir: config.ROUTER_DATA_DIR,
    quotaBytes,
    alarmRatio: config.ROUTER_DISK_ALARM_PERCENT / 100,
  });
  undo.push(() => queue.close());
  queue.on('disk-alarm', (usage) => log('disk quota alarm', { ...usage }));
  const cloudSettings = new CloudSettings(
    cloudFetcher(config.ROUTER_SERVER_URL, config.ROUTER_API_TOKEN),
    log,
    undefined,
    path.join(config.ROUTER_DATA_DIR, 'cloud-settings.json'),
  );
  const uploader = new Uploader(queue, {
    serverUrl: config.ROUTER_SERVER_URL,
    apiToken: config.ROUTER_API_TOKEN,
    bytesPerSecond: (config.ROUTER_UPLOAD_KBITPS * 1000) / 8,
    uploadHours: config.ROUTER_UPLOAD_HOURS,
    batchBytes: Math.round(config.ROUTER_UPLOAD_BATCH_MB * 1024 * 1024),
    batchCount: config.ROUTER_UPLOAD_BATCH_COUNT,
    concurrency: config.ROUTER_UPLOAD_CONCURRENCY,
    backoff: { baseMs: config.ROUTER_RETRY_BASE_MS, maxMs: config.ROUTER_RETRY_MAX_MS },
    probeMs: config.ROUTER_LINK_PROBE_MS,
    log,
    uploadTransform: () => cloudSettings.uploadTransform(),
  });

  const offlineReports = await OfflineReportStore.open(config.ROUTER_DATA_DIR).catch(
    async (error: unknown) => {
      await unwind();
      throw error;
    },
  );
  undo.push(() => offlineReports.close());
  const offlineAnnotations = await OfflineAnnotationStore.open(config.ROUTER_DATA_DIR).catch(
    async (error: unknown) => {
      await unwind();
      throw error;
    },
  );
  undo.push(() => offlineAnnotations.close());
  const offlineDrafts = await OfflineDraftStore.open(config.ROUTER_DATA_DIR).catch(async (error: unknown) => {
    await unwind();
    throw error;
  });
  undo.push(() => offlineDrafts.close());
  const credentials = await OfflineCredentials.open(config.ROUTER_DATA_DIR).catch(async (error: unknown) => {
    await unwind();
    throw error;
  });
  const reportSync = new ReportSync(offlineReports, {
    serverUrl: config.ROUTER_SERVER_URL,
    apiToken: config.ROUTER_API_TOKEN,
    grantOf: (email) => credentials.grantOf(email),
    annotations: offlineAnnotations,
    probeMs: config.ROUTER_LINK_PROBE_MS,
    backoff: { baseMs: config.ROUTER_RETRY_BASE_MS, maxMs: config.ROUTER_RETRY_MAX_MS },
    log,
  });

  let scp: StoreScp;
  let sendJobs: SendJobs;
  let api: { app: FastifyInstance; url: string };
  const updater = createRouterUpdater(cloudFetcher(config.ROUTER_SERVER_URL, config.ROUTER_API_TOKEN), {
    // An update switched in: stop cleanly (the queue's journal, open associations), then the launcher restarts us.
    requestRestart: () => void stop().finally(() => process.exit(RESTART_EXIT_CODE)),
    ...options.updater,
  });
  try {
    // A study the router still holds is sent from its disk; else it is fetched from the cloud.
    sendJobs = await SendJobs.open({
      dataDir: config.ROUTER_DATA_DIR,
      source: new FirstStudySource([
        new QueueStudySource(queue),
        new CloudStudySource({
          serverUrl: config.ROUTER_SERVER_URL,
          token: () => config.ROUTER_API_TOKEN,
          tempRoot: queue.tempDir,
        }),
      ]),
      callingAet: config.ROUTER_AE_TITLE,
      policy: { allowed: config.ROUTER_FORWARD_DESTINATIONS },
    });
    undo.push(() => sendJobs.close());
    scp = await startDicomReceiver(queue, {
      aeTitle: config.ROUTER_AE_TITLE,
      host: config.ROUTER_DICOM_HOST,
      port: config.ROUTER_DICOM_PORT,
      modalities: config.ROUTER_MODALITY_AE_TITLES,
      log,
    });
    undo.push(() => scp.close(5_000));
    const uploadQueue = uploadQueueOf(queue);
    api = await startLocalApi({
      port: config.ROUTER_PORT,
      version: ROUTER_VERSION,
      serverUrl: config.ROUTER_SERVER_URL,
      extraOrigins: config.ROUTER_WEB_ORIGINS,
      incomingDir: queue.tempDir,
      queue: uploadQueue,
      sendJobs: sendJobsPort(sendJobs, cloudSettings),
      printer: printerPort(printerFromSetting(config.ROUTER_PRINTER, config.ROUTER_AE_TITLE)),
      releases: releasesPort(updater, log),
      cloudLogin: withOfflineSignIn(createCloudLogin({ serverUrl: config.ROUTER_SERVER_URL }), credentials),
      settings: settingsOf(config),
      hybrid: hybridReportsOf(
        uploadQueue,
        { reports: offlineReports, annotations: offlineAnnotations, drafts: offlineDrafts },
        () => reportSync.kick(),
      ),
      hybridTemplates: (email) => credentials.templatesOf(email),
      offlineImages: new SpoolImages((uid) => queue.studyFiles(uid)),
      ...(config.ROUTER_WEB_DIR ? { webDir: config.ROUTER_WEB_DIR } : {}),
    });
  } catch (error) {
    await unwind();
    throw error;
  }

  uploader.start();
  reportSync.start();
  const stopVersionCheck = updater.startPeriodicCheck((check) => {
    if (check.updateAvailable) log('router update available', { version: check.latest?.version });
  });
  const compaction = setInterval(
    () => void queue.compactIfLarge().catch((e: unknown) => log('compaction failed', { err: String(e) })),
    60_000,
  );
  compaction.unref();

  let stopped: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopped ??= (async () => {
      clearInterval(compaction);
      stopVersionCheck();
      // The browser first (no new work), then the DICOM side, then the queue it all writes to.
      await api.app.close();
      await scp.close(5_000);
      await sendJobs.close();
      await uploader.stop();
      await reportSync.stop();
      await offlineReports.close();
      await offlineAnnotations.close();
      await offlineDrafts.close();
      await queue.close();
    })();
    return stopped;
  }

  const address = api.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.ROUTER_PORT;
  return {
    config,
    queue,
    uploader,
    scp,
    sendJobs,
    updater,
    offlineReports,
    reportSync,
    api: { ...api, port },
    stop,
  };
}
