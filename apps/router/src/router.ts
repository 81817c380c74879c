/**
 * The router's parts put together (ROUTER.md): the durable queue, the C-STORE SCP that fills it and
 * the uploader that drains it to the cloud. main.ts runs it as a program; tests and the local API
 * start it in process.
 */
import type { StoreScp } from '@radflow/dicom/dimse';
import type { TRouterConfig } from './config.js';
import { InstanceQueue } from './queue/queue.js';
import { startDicomReceiver } from './receive/dicom-receiver.js';
import { Uploader } from './upload/uploader.js';

export interface RunningRouter {
  readonly config: TRouterConfig;
  readonly queue: InstanceQueue;
  readonly uploader: Uploader;
  readonly scp: StoreScp;
  stop(): Promise<void>;
}

export type RouterLog = (message: string, fields?: Record<string, unknown>) => void;

export async function startRouter(
  config: TRouterConfig,
  log: RouterLog = () => undefined,
): Promise<RunningRouter> {
  const quotaBytes = Math.round(config.ROUTER_DISK_QUOTA_MB * 1024 * 1024);
  const queue = await InstanceQueue.open({
    dataDir: config.ROUTER_DATA_DIR,
    quotaBytes,
    alarmRatio: config.ROUTER_DISK_ALARM_PERCENT / 100,
  });
  queue.on('disk-alarm', (usage) => log('disk quota alarm', { ...usage }));
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
  });
  let scp: StoreScp;
  try {
    scp = await startDicomReceiver(queue, {
      aeTitle: config.ROUTER_AE_TITLE,
      host: config.ROUTER_DICOM_HOST,
      port: config.ROUTER_DICOM_PORT,
      modalities: config.ROUTER_MODALITY_AE_TITLES,
      log,
    });
  } catch (error) {
    await queue.close();
    throw error;
  }
  uploader.start();
  const compaction = setInterval(
    () => void queue.compactIfLarge().catch((e: unknown) => log('compaction failed', { err: String(e) })),
    60_000,
  );
  compaction.unref();
  return {
    config,
    queue,
    uploader,
    scp,
    async stop() {
      clearInterval(compaction);
      await scp.close(5_000);
      await uploader.stop();
      await queue.close();
    },
  };
}
