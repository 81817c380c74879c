import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TSupportContact } from '@radflow/core';
import { type TPlatformIssuer, type TProviders, createAppContext } from './context.js';
import { acceptBetweenDatabaseTurns, type Db } from './db/client.js';
import { archiveRoutes } from './modules/archive/archive.routes.js';
import type { TUploadLimits } from './modules/archive/upload-zip.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { devicesRoutes } from './modules/devices/devices.routes.js';
import { dicomwebRetrieveRoutes } from './modules/dicomweb-retrieve/dicomweb-retrieve.routes.js';
import { forwardingRoutes } from './modules/forwarding/forwarding.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { preferencesRoutes } from './modules/preferences/preferences.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { worklistRoutes } from './modules/worklist/worklist.routes.js';
import { reportSearchRoutes } from './modules/report-search/report-search.routes.js';
import { summariesRoutes } from './modules/summaries/summaries.routes.js';
import { studyActionsRoutes } from './modules/study-actions/study-actions.routes.js';
import { studyAttachmentsRoutes } from './modules/study-attachments/attachments.routes.js';
import { reportTagsRoutes } from './modules/report-tags/report-tags.routes.js';
import { studySharingRoutes } from './modules/study-sharing/study-sharing.routes.js';
import { viewerRoutes } from './modules/viewer/viewer.routes.js';
import { sharePageRoutes } from './modules/share-page/share-page.routes.js';
import { settingAssetsRoutes } from './modules/setting-assets/setting-assets.routes.js';
import { brandRoutes } from './modules/brand/brand.routes.js';
import { supportChatRoutes } from './modules/support-chat/support-chat.routes.js';
import { trainingVideosRoutes } from './modules/training-videos/training-videos.routes.js';
import { labPrefixRoutes } from './modules/lab-settings/lab-prefix.routes.js';
import { paymentGatePlugin } from './modules/payments/payment-gate.js';
import { labPreferencesRoutes } from './modules/lab-settings/lab-preferences.routes.js';
import { labTestsRoutes } from './modules/lab-tests/lab-tests.routes.js';
import { labTestAttributesRoutes } from './modules/lab-settings/lab-test-attributes.routes.js';
import { labPatientsRoutes } from './modules/lab-patients/lab-patients.routes.js';
import { labReferringDoctorsRoutes } from './modules/lab-referring-doctors/lab-referring-doctors.routes.js';
import { labDocumentsRoutes } from './modules/lab-documents/lab-documents.routes.js';
import { labBillRoutes } from './modules/lab-bills/lab-bills.routes.js';
import { labAppointmentRoutes } from './modules/lab-appointments/lab-appointments.routes.js';
import { labBillTestRoutes } from './modules/lab-worklist/lab-bill-test.routes.js';
import { reportingRoutes } from './modules/reporting/reporting.routes.js';
import { reportDocumentsRoutes } from './modules/report-documents/report-documents.routes.js';
import { reportAudioRoutes } from './modules/report-audio/report-audio.routes.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { chatMessagesById } from './modules/chat/study-chat.js';
import { criticalResultsRoutes } from './modules/critical-results/critical-results.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { type TLiveOptions, liveRoutes } from './modules/live/live.routes.js';
import { peopleRoutes } from './modules/people/people.routes.js';
import { signupRoutes } from './modules/signup/signup.routes.js';
import { teleBillingRoutes } from './modules/tele-billing/tele-billing.routes.js';
import { telePayoutsRoutes } from './modules/tele-payouts/tele-payouts.routes.js';
import { paymentsRoutes } from './modules/payments/payments.routes.js';
import { paymentWebhookRoutes } from './modules/payment-webhook/payment-webhook.routes.js';
import type { TRazorpayOptions } from './modules/payments/razorpay-provider.js';
import { customerPagesRoutes } from './modules/customer-pages/customer-pages.routes.js';
import { turnaroundRoutes } from './modules/turnaround/turnaround.routes.js';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes.js';
import { platformBillingRoutes } from './modules/platform-billing/platform-billing.routes.js';
import { invoicePaymentsRoutes } from './modules/invoice-payments/invoice-payments.routes.js';
import { routerReleasesRoutes } from './modules/router-releases/router-releases.routes.js';
import { hybridReportsRoutes } from './modules/hybrid-reports/hybrid-reports.routes.js';
import type { BlobStore } from './modules/storage/blob-store.js';
import { WEB_DIST_DIR } from './paths.js';
import { authPlugin } from './plugins/auth.js';
import { errorsPlugin } from './plugins/errors.js';
import { inputLimitsPlugin } from './plugins/input-limits.js';
import { loadSheddingPlugin } from './plugins/load-shedding.js';
import { openapiPlugin } from './plugins/openapi.js';
import { requestOriginPlugin } from './plugins/request-origin.js';
import { webPlugin } from './plugins/web.js';

export interface BuildAppOptions {
  db: Db;
  /** pino options, or false for none (tests). Default: JSON logs at info. */
  logger?: FastifyServerOptions['logger'];
  /** Which proxies to trust for the client address and https (config TRUST_PROXY). Default: loopback. */
  trustProxy?: boolean | number | string;
  /**
   * Replacements for the providers the context would choose from config (context.ts: tests' fakes).
   * Default: each chosen from the options below.
   */
  providers?: Partial<TProviders>;
  /** The recording providers also append each message to this file (config OUTBOX_MIRROR_FILE). */
  outboxMirrorFile?: string;
  /** config SMTP_URL: e-mail goes over SMTP; unset, it is only recorded in the outbox. */
  smtpUrl?: string;
  /** config PAYMENT_TEST_GATEWAY: the default provider's simulated gateway, whose pay link pays. */
  paymentTestGateway?: boolean;
  /** config PAYMENT_PROVIDER=razorpay with the RAZORPAY_* settings: payments through Razorpay. */
  razorpay?: TRazorpayOptions;
  /** config PUBLIC_URL: the base of links in messages; default: the address a request came to. */
  publicUrl?: string;
  /**
   * config ALLOWED_ORIGINS: pages of other origins whose calls are ours too (besides PUBLIC_URL and
   * the address a request came to); plugins/request-origin.ts.
   */
  allowedOrigins?: readonly string[];
  /**
   * config API_MAX_IN_FLIGHT: API calls in progress beyond which a call is answered 503 with
   * Retry-After (plugins/load-shedding.ts); 0: no bound. Default DEFAULT_MAX_IN_FLIGHT.
   */
  maxInFlight?: number;
  /**
   * config API_MAX_BUSY_MS: shed calls read after the event loop has been busy this long without
   * running a timer (plugins/load-shedding.ts); 0: no such check. Default DEFAULT_MAX_BUSY_MS.
   */
  maxBusyMs?: number;
  /** Default: apps/web/dist next to this code. */
  webDistDir?: string;
  /** The clock (tests). */
  now?: () => Date;
  /** config SUPPORT_PHONE / SUPPORT_EMAIL: shown to users as who to call. Default: none. */
  support?: Partial<TSupportContact>;
  /** config PLATFORM_BILLING_NAME / PLATFORM_BILLING_ADDRESS: the platform invoices' issuer. Default: none. */
  platformIssuer?: Partial<TPlatformIssuer>;
  /** config UPLOAD_MAX_INFLATED_BYTES / UPLOAD_MAX_COMPRESSION_RATIO: the zips of one browser upload. */
  uploadLimits?: TUploadLimits;
  /** Where files are kept (main: DATA_DIR/blobs; tests: a temp dir). */
  blobs: BlobStore;
  /** The live stream's limits and timings (modules/live); default DEFAULT_LIVE_OPTIONS. */
  live?: Partial<TLiveOptions>;
  /** config ROUTER_RELEASES_DIR: where 'Download router' finds the router's releases (modules/router-releases). */
  routerReleasesDir?: string;
  /** config TRAINING_VIDEOS_DIR: the FAQ's recorded training videos (modules/training-videos). */
  trainingVideosDir?: string;
}

/** A hop count becomes the function form fastify's types accept. */
function toTrustProxy(
  value: boolean | number | string,
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** API calls in progress before new ones are shed (plugins/DECISIONS.md "Under load"; bench/overload.ts). */
export const DEFAULT_MAX_IN_FLIGHT = 64;
/** Event-loop busy stretch (ms) after which calls are shed (PGlite's queue; DECISIONS.md). */
export const DEFAULT_MAX_BUSY_MS = 100;

/** Largest request body the JSON/form API accepts (uploads get their own limits). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the server: plugins, then the modules under /api. Does not listen (STYLE: app.ts vs main.ts). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? { level: 'info' },
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'txnId' }),
    trustProxy: toTrustProxy(opts.trustProxy ?? 'loopback'),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Every provider and the public address are chosen here, once (context.ts).
  const ctx = createAppContext({
    db: opts.db,
    blobs: opts.blobs,
    now: opts.now,
    support: opts.support,
    platformIssuer: opts.platformIssuer,
    publicUrl: opts.publicUrl,
    smtpUrl: opts.smtpUrl,
    outboxMirrorFile: opts.outboxMirrorFile,
    paymentTestGateway: opts.paymentTestGateway,
    razorpay: opts.razorpay,
    providers: opts.providers,
  });
  app.decorate('ctx', ctx);
  // A burst of new connections is accepted between two PGlite calls, not one per call.
  const stopWatchingAccepts = acceptBetweenDatabaseTurns(opts.db, app.server);
  app.addHook('onClose', async () => stopWatchingAccepts());

  // The txnId of the error body is also a response header, for bodies that are not JSON.
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  // An empty JSON body (a bodiless POST from a client that always sends the header) is no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // The API speaks JSON; the sign-in also takes its form's encoding (registered with its routes
  // below), upload routes register multipart. Other bodies are 415: a form-encoded, multipart or
  // text/plain body is what another site's <form> can send (plugins/DECISIONS.md).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    void parseJson(request, text, done);
  });

  await app.register(loadSheddingPlugin, {
    maxInFlight: opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
    maxBusyMs: opts.maxBusyMs ?? DEFAULT_MAX_BUSY_MS,
    retryAfterSeconds: 1,
  });
  await app.register(errorsPlugin);
  await app.register(inputLimitsPlugin);
  await app.register(requestOriginPlugin, {
    ...(opts.allowedOrigins ? { allowedOrigins: opts.allowedOrigins } : {}),
  });
  await app.register(fastifyCookie);
  await app.register(authPlugin);
  // Before every route: a viewer account's study content waits for its payment (402).
  await app.register(paymentGatePlugin);
  await app.register(openapiPlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      // The one form-encoded route: the sign-in form (a parser scoped to the sign-in routes).
      await api.register(async (signIn) => {
        await signIn.register(fastifyFormbody, { bodyLimit: BODY_LIMIT_BYTES });
        await signIn.register(authRoutes);
      });
      await api.register(usersRoutes);
      await api.register(devicesRoutes);
      await api.register(preferencesRoutes);
      await api.register(archiveRoutes, { uploadLimits: opts.uploadLimits });
      await api.register(dicomwebRetrieveRoutes);
      await api.register(forwardingRoutes);
      await api.register(jobsRoutes);
      await api.register(worklistRoutes);
      await api.register(reportSearchRoutes);
      await api.register(summariesRoutes);
      await api.register(studyActionsRoutes);
      await api.register(studyAttachmentsRoutes);
      await api.register(reportTagsRoutes);
      await api.register(studySharingRoutes);
      await api.register(viewerRoutes);
      await api.register(sharePageRoutes);
      await api.register(settingAssetsRoutes);
      await api.register(brandRoutes);
      await api.register(supportChatRoutes);
      await api.register(trainingVideosRoutes, { videosDir: opts.trainingVideosDir });
      await api.register(labPrefixRoutes);
      await api.register(labPreferencesRoutes);
      await api.register(labTestsRoutes);
      await api.register(labTestAttributesRoutes);
      await api.register(labPatientsRoutes);
      await api.register(labReferringDoctorsRoutes);
      await api.register(labDocumentsRoutes);
      await api.register(labBillRoutes);
      await api.register(labAppointmentRoutes);
      await api.register(labBillTestRoutes);
      await api.register(reportingRoutes);
      await api.register(reportDocumentsRoutes);
      await api.register(reportAudioRoutes);
      await api.register(peopleRoutes);
      await api.register(signupRoutes);
      await api.register(paymentsRoutes);
      // Its own JSON parser (the raw body for the provider's signature), scoped to the plugin.
      await api.register(paymentWebhookRoutes);
      await api.register(customerPagesRoutes);
      await api.register(teleBillingRoutes);
      await api.register(telePayoutsRoutes);
      await api.register(chatRoutes);
      await api.register(criticalResultsRoutes);
      await api.register(notificationsRoutes);
      await api.register(turnaroundRoutes);
      await api.register(dashboardsRoutes);
      await api.register(platformBillingRoutes);
      await api.register(invoicePaymentsRoutes);
      await api.register(liveRoutes, {
        live: opts.live,
        chatMessagesById: (ids) => chatMessagesById(ctx.db, ids),
      });
      await api.register(routerReleasesRoutes, { releasesDir: opts.routerReleasesDir });
      await api.register(hybridReportsRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { webDistDir: opts.webDistDir ?? WEB_DIST_DIR });
  return app;
}
