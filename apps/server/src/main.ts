import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase, pingDatabase } from './db/client.js';
import { startPgliteMaintenance } from './db/pglite-maintenance.js';
import path from 'node:path';
import { prepareDatabase } from './prepare-database.js';
import { jobRunnerOf } from './modules/jobs/job-registry.js';
import { startForwardingWorker } from './modules/forwarding/forward-worker.js';
import { FsBlobStore } from './modules/storage/blob-store.js';
import { type DicomServices, startDicomServices } from './modules/archive/dicom-services.js';
import { startUploadSweep } from './modules/archive/upload-sweep.js';
import { startIngestJournal, stopIngestJournal } from './modules/archive/journal-indexer.js';
import { startOrphanSweep } from './modules/archive/orphan-sweep.js';
import { startCriticalResultSweep } from './modules/critical-results/escalation-sweep.js';
import { fileOffsetClock } from './test-clock.js';
import { startDunningSweep } from './modules/tele-billing/dunning.js';
import { startSeenNotificationPrune } from './modules/notifications/seen-prune.js';
import { seedDemoStudies } from './modules/seed/seed-demo-studies.js';
import { type HealthResponder, startHealthResponder } from './modules/health/health-responder.js';

/** Starts the server: configuration, database, migrations, demo seed, listen; stops gracefully. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const handle = await openDatabase(config);
  const { seeded } = await prepareDatabase(handle, { seedDemo: config.SEED_DEMO });
  const blobs = await new FsBlobStore(path.join(config.DATA_DIR, 'blobs')).init();
  const app = await buildApp({
    db: handle.db,
    blobs,
    ...(config.TEST_CLOCK_FILE ? { now: fileOffsetClock(config.TEST_CLOCK_FILE) } : {}),
    logger: { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    ...(config.OUTBOX_MIRROR_FILE ? { outboxMirrorFile: config.OUTBOX_MIRROR_FILE } : {}),
    // Without SMTP_URL e-mails are only recorded in the outbox (development, tests); context.ts.
    ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
    ...(config.PUBLIC_URL ? { publicUrl: config.PUBLIC_URL } : {}),
    allowedOrigins: config.ALLOWED_ORIGINS,
    maxInFlight: config.API_MAX_IN_FLIGHT,
    maxBusyMs: config.API_MAX_BUSY_MS,
    live: { maxStreamsPerUser: config.LIVE_MAX_STREAMS_PER_USER },
    support: { phone: config.SUPPORT_PHONE ?? null, email: config.SUPPORT_EMAIL ?? null },
    platformIssuer: {
      name: config.PLATFORM_BILLING_NAME ?? null,
      address: config.PLATFORM_BILLING_ADDRESS ?? null,
    },
    ...(config.WEB_DIST_DIR ? { webDistDir: config.WEB_DIST_DIR } : {}),
    ...(config.ROUTER_RELEASES_DIR ? { routerReleasesDir: config.ROUTER_RELEASES_DIR } : {}),
    trainingVideosDir: config.TRAINING_VIDEOS_DIR ?? path.join(config.DATA_DIR, 'training-videos'),
    paymentTestGateway: config.PAYMENT_TEST_GATEWAY,
    ...(config.razorpay ? { razorpay: config.razorpay } : {}),
    uploadLimits: {
      maxInflatedBytes: config.UPLOAD_MAX_INFLATED_BYTES,
      maxCompressionRatio: config.UPLOAD_MAX_COMPRESSION_RATIO,
    },
  });
  app.log.info(
    {
      database: handle.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}/db` : 'PostgreSQL',
      ...(handle.dataDirOrigin ? { dataDirOrigin: handle.dataDirOrigin } : {}),
      seeded,
    },
    'database ready',
  );
  if (config.SEED_DEMO) {
    // The demo studies go through the ingest and the study services, which need the app's context;
    // under the startup lock, so processes starting together seed them once (seed-demo-studies.ts).
    const stored = await handle.withStartupLock(() => seedDemoStudies(app.ctx, { log: app.log }));
    if (stored > 0) app.log.info({ studies: stored }, 'demo studies seeded');
  }

  if (config.INGEST_ACK === 'journal') {
    // Before any service takes an ingest: what the journal holds past the index is indexed now.
    const { replayed } = await startIngestJournal(app.ctx, {
      dir: path.join(config.DATA_DIR, 'journal'),
      log: app.log,
    });
    app.log.info({ replayed }, 'ingest journal ready');
  }

  const stopSweep = startUploadSweep(app.ctx, config.UPLOAD_QUIET_SECONDS, app.log);
  // Blobs a crash left without an index row (ARCHIVE.md "orphan blobs"), hourly.
  const stopOrphanSweep = startOrphanSweep(app.ctx, app.log);
  // Unacknowledged critical results past their group's time go to the group admins (every process;
  // the claim is atomic: modules/critical-results/README.md).
  const stopCriticalSweep = startCriticalResultSweep(
    app.ctx,
    app.log,
    config.CRITICAL_ESCALATION_SWEEP_SECONDS * 1000,
  );
  // Seen marks of notifications past the bell's window are never read again (notifications README).
  const stopSeenPrune = startSeenNotificationPrune(app.ctx, app.log);
  // A tele invoice unpaid past its due date labels its center's rows (tele-billing DECISIONS.md).
  const stopDunningSweep = startDunningSweep(app.ctx, app.log);
  // PGlite has no autovacuum: ANALYZE and VACUUM at its thresholds (db/pglite-maintenance.ts).
  const stopMaintenance = startPgliteMaintenance(app.ctx.db, app.log);
  let dicom: DicomServices | null = null;
  let health: HealthResponder | null = null;

  const forwarding = startForwardingWorker(app.ctx, {
    callingAet: config.DICOM_AET,
    onError: (error) => app.log.error({ err: error }, 'forwarding worker'),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 15 s: exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await health?.close();
      await dicom?.close();
      await stopSweep();
      await stopOrphanSweep();
      await stopCriticalSweep();
      await stopSeenPrune();
      await stopDunningSweep();
      await stopMaintenance();
      await forwarding.stop();
      await app.close();
      // In-flight ingests are answered: their records are indexed before the database closes.
      await stopIngestJournal(app.ctx);
      await handle.close();
      await blobs.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  if (config.HEALTH_PORT) {
    // Answers from its own thread while PGlite holds this one (health-responder.ts).
    health = await startHealthResponder({
      port: config.HEALTH_PORT,
      host: config.HEALTH_HOST,
      maxStallMs: config.HEALTH_MAX_STALL_MS,
      probeDatabase: () => pingDatabase(handle.db),
    });
    app.log.info({ port: health.port, host: config.HEALTH_HOST }, 'health responder listening');
  }
  // Jobs run in every server process (pg-boss hands each job to one of them); app.close() stops them.
  await jobRunnerOf(app.ctx, app.log).startWorkers();
  if (config.DICOM_ENABLED) {
    dicom = await startDicomServices(app.ctx, config, app.log);
    app.log.info({ port: dicom.port, aeTitle: config.DICOM_AET }, 'DICOM C-STORE SCP listening');
  }
}

main().catch((error: unknown) => {
  console.error('Radflow server failed to start:', error);
  process.exit(1);
});
