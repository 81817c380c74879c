import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_UPLOAD_LIMITS } from './modules/archive/upload-zip.js';
import type { TRazorpayOptions } from './modules/payments/razorpay-provider.js';

const booleanFromEnv = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'must be true or false',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

const port = (fallback: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a port number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535')
      .default(fallback),
  );

/** A whole number of `unit` between `min` and `max`, `fallback` when unset. */
const count = (fallback: number, min: number, max: number, unit: string) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: `must be a number of ${unit}` })
      .int(`must be a whole number of ${unit}`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .default(fallback),
  );

/**
 * The server's configuration: one schema over process.env (ARCHITECTURE §7, issue 2 §2).
 * Unset or empty variables take their defaults.
 */
export const ZServerConfig = z
  .object({
    PORT: port(8080),
    /** The address to listen on (tests: 127.0.0.1). */
    HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
    /** Where the embedded database and files live; relative paths resolve from the working directory. */
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    /** Unset: PGlite under DATA_DIR/db. Set: a PostgreSQL server (node-postgres pool). */
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    /**
     * PostgreSQL connections the server keeps open. Each one is a backend process on the database
     * host: size it to the database's cores (about 2-3 per core), not to the number of users.
     */
    DATABASE_POOL_SIZE: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of connections' })
        .int('must be a whole number of connections')
        .min(1, 'must be at least 1')
        .max(200, 'must be at most 200')
        .default(10),
    ),
    /**
     * API calls in progress beyond which a call is answered 503 with Retry-After instead of queueing
     * (plugins/load-shedding.ts; /api/health is never refused). 0: no bound. Default 64.
     */
    API_MAX_IN_FLIGHT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of calls' })
        .int('must be a whole number of calls')
        .min(0, 'must be 0 (no bound) or more')
        .max(100_000, 'must be at most 100000')
        .default(64),
    ),
    /**
     * Calls read after the event loop has been busy this many ms without running a timer are answered
     * 503 with Retry-After (plugins/load-shedding.ts: PGlite's queue, which the count does not see).
     * 0: no such check. Default 100.
     */
    API_MAX_BUSY_MS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of milliseconds' })
        .int('must be a whole number of milliseconds')
        .min(0, 'must be 0 (off) or more')
        .max(600_000, 'must be at most 600000')
        .default(100),
    ),
    /**
     * A health check on a thread of its own (modules/health/health-responder.ts): answers at once
     * whatever the load, 503 when the main thread's event loop or the database has not answered for
     * HEALTH_MAX_STALL_MS. Unset: none (GET /api/health on PORT answers as before).
     */
    HEALTH_PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a port number' })
        .int('must be a port number')
        .min(1, 'must be between 1 and 65535')
        .max(65535, 'must be between 1 and 65535')
        .optional(),
    ),
    /** The address of the HEALTH_PORT listener. Default 127.0.0.1 (a load balancer elsewhere: 0.0.0.0). */
    HEALTH_HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
    /** Beats older than this make the HEALTH_PORT listener answer 503. Default 10000. */
    HEALTH_MAX_STALL_MS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of milliseconds' })
        .int('must be a whole number of milliseconds')
        .min(100, 'must be at least 100')
        .max(600_000, 'must be at most 600000')
        .default(10_000),
    ),
    /**
     * Open live streams (GET /api/live, one per tab) per user in one server process; past it 429
     * (modules/live/README.md). Default 10.
     */
    LIVE_MAX_STREAMS_PER_USER: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of streams' })
        .int('must be a whole number of streams')
        .min(1, 'must be at least 1')
        .max(100_000, 'must be at most 100000')
        .default(10),
    ),
    DICOM_PORT: port(11112),
    DICOM_AET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[\x20-\x7e]{1,16}$/, 'must be 1 to 16 printable ASCII characters')
        .default('RADFLOW'),
    ),
    /**
     * The DICOM port's limits (PS3.8 §9.1.5; one address must not hold the port every center shares):
     * connections at once in all, and from one address (an IPv6 /64 is one address); more are
     * answered 'local limit exceeded' and closed.
     */
    DICOM_MAX_CONNECTIONS: count(256, 1, 10_000, 'connections'),
    DICOM_MAX_CONNECTIONS_PER_ADDRESS: count(16, 1, 10_000, 'connections'),
    /** ARTIM: a connection must complete its A-ASSOCIATE-RQ within this many seconds. */
    DICOM_ASSOCIATION_REQUEST_TIMEOUT_SECONDS: count(10, 1, 600, 'seconds'),
    /** An association that sends no PDU for this many seconds (while we owe it no answer) is aborted. */
    DICOM_IDLE_TIMEOUT_SECONDS: count(60, 1, 86_400, 'seconds'),
    /**
     * Tests only (the browser stories): a file whose whole number of milliseconds is added to the
     * app's clock, read at every call (src/test-clock.ts). Unset: the real clock.
     */
    TEST_CLOCK_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
    /** How often unacknowledged critical results are checked for escalation (critical-results README). */
    CRITICAL_ESCALATION_SWEEP_SECONDS: count(30, 1, 3_600, 'seconds'),
    /** A study counts as fully uploaded once no instance has arrived for this many seconds (issue 3 §2). */
    UPLOAD_QUIET_SECONDS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of seconds' })
        .int('must be a whole number of seconds')
        .min(1, 'must be at least 1')
        .max(86_400, 'must be at most 86400')
        .default(60),
    ),
    /**
     * What the zips of one browser upload may unpack to in total (bytes); more answers 413 before
     * anything is unpacked (modules/archive/upload-zip.ts).
     */
    UPLOAD_MAX_INFLATED_BYTES: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number of bytes' })
        .int('must be a whole number of bytes')
        .min(1024 * 1024, 'must be at least 1048576 (1 MiB)')
        .max(Number.MAX_SAFE_INTEGER, 'is too large')
        .default(DEFAULT_UPLOAD_LIMITS.maxInflatedBytes),
    ),
    /**
     * How many times their own size the zips of one browser upload may unpack to (a zip bomb of
     * zeros is ~1000); more answers 413. Not applied below 32 MiB unpacked.
     */
    UPLOAD_MAX_COMPRESSION_RATIO: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number' })
        .min(1, 'must be at least 1')
        .max(100_000, 'must be at most 100000')
        .default(DEFAULT_UPLOAD_LIMITS.maxCompressionRatio),
    ),
    /**
     * Serve the web app from this directory instead of apps/web/dist (a benchmark or a second build
     * beside the one others test); relative paths resolve from the working directory.
     */
    WEB_DIST_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
    /**
     * Where 'Download router' and the router's update check find the router's releases: the files
     * `npm run package -w @radflow/router` writes (modules/router-releases/README.md). Unset: none.
     */
    ROUTER_RELEASES_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
    /**
     * When a C-STORE or STOW-RS instance is acknowledged (archive ARCHIVE.md "acknowledge before
     * indexing"): `commit` once its index rows are committed; `journal` once its blob and a record
     * in DATA_DIR/journal are durable, the index following in batches within a second.
     */
    INGEST_ACK: z.preprocess(
      emptyAsUndefined,
      z.enum(['commit', 'journal'], { error: 'must be commit or journal' }).default('commit'),
    ),
    /**
     * Where the FAQ's training videos are (scripts/record-training-videos.ts writes them;
     * modules/training-videos). Unset: DATA_DIR/training-videos.
     */
    TRAINING_VIDEOS_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
    /** Set to false to run without the C-STORE SCP (e.g. a second API-only process). */
    DICOM_ENABLED: z.preprocess(emptyAsUndefined, booleanFromEnv(true)),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ error: 'must be a URL' }).optional()),
    /**
     * Other origins (scheme://host[:port], comma-separated) whose pages may call the API with a
     * visitor's cookie, besides PUBLIC_URL and the address a request came to (plugins/DECISIONS.md
     * "Requests from our page"). Default: none.
     */
    ALLOWED_ORIGINS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('')
        .transform((v) =>
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
        .refine((list) => list.every((o) => /^https?:\/\/[^/\s?#]+$/.test(o)), {
          error: 'must be comma-separated origins like https://host:port',
        }),
    ),
    SEED_DEMO: z.preprocess(emptyAsUndefined, booleanFromEnv(true)),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z
        .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
          error: 'must be one of fatal, error, warn, info, debug, trace, silent',
        })
        .default('info'),
    ),
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    /**
     * The support contact users are sent to (the 'Voice free trial is over' dialog, the pricing page,
     * the payment-needed page). Unset: those screens tell the user to contact their group administrator.
     */
    SUPPORT_PHONE: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .regex(/^\+?[0-9][0-9 ()-]{3,28}[0-9]$/, 'must be a phone number: digits, spaces, + ( ) -')
        .optional(),
    ),
    SUPPORT_EMAIL: z.preprocess(emptyAsUndefined, z.email({ error: 'must be an e-mail address' }).optional()),
    /**
     * The issuer printed on the platform's invoices to the groups (modules/platform-billing
     * DECISIONS.md "PDF"): its legal name and address. Unset: the operator group's billing details
     * (account name) and no address line.
     */
    PLATFORM_BILLING_NAME: z.preprocess(emptyAsUndefined, z.string().trim().max(200).optional()),
    PLATFORM_BILLING_ADDRESS: z.preprocess(emptyAsUndefined, z.string().trim().max(500).optional()),
    /**
     * The default payment provider's simulated gateway: a payment request gets a pay link that pays
     * when followed (modules/payments/DECISIONS.md). For the browser stories and demos; never where
     * real payments are due. Off: payments are taken at the center and recorded by staff.
     */
    PAYMENT_TEST_GATEWAY: z.preprocess(emptyAsUndefined, booleanFromEnv(false)),
    /**
     * Who takes online payments (modules/payments/DECISIONS.md "Providers"): outbox (default: no
     * gateway; payments are taken at the center, or the simulated gateway above) or razorpay
     * (Razorpay Payment Links; needs the three RAZORPAY_* secrets below, checked at start).
     */
    PAYMENT_PROVIDER: z.preprocess(
      emptyAsUndefined,
      z.enum(['outbox', 'razorpay'], { error: 'must be outbox or razorpay' }).default('outbox'),
    ),
    /** Razorpay's API key id and secret (Dashboard → API Keys); the secret also signs the payer's return. */
    RAZORPAY_KEY_ID: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
    RAZORPAY_KEY_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    /**
     * The secret of the webhook set up in Razorpay's Dashboard for {PUBLIC_URL}/api/payments/webhook/razorpay
     * (event payment_link.paid); it signs each webhook call.
     */
    RAZORPAY_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    /** Razorpay's API address (a test server in tests). */
    RAZORPAY_API_URL: z.preprocess(
      emptyAsUndefined,
      z.url({ error: 'must be a URL' }).default('https://api.razorpay.com'),
    ),
    /**
     * Also append every message the outbox providers record to this file, one JSON line each
     * (`{channel, recipient, subject, body, createdAt}`): for the browser tests and local development.
     */
    OUTBOX_MIRROR_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
    /**
     * Which proxies to trust for X-Forwarded-For/-Proto (client address for the sign-in rate limit,
     * https for the Secure cookie): true (all), false, a hop count, or a comma-separated list of
     * addresses/CIDRs or proxy-addr names. Default 'loopback': a reverse proxy on the same host; a
     * client talking to us directly cannot fake its address.
     */
    TRUST_PROXY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('loopback')
        .transform((v): boolean | number | string => {
          if (v === 'true') return true;
          if (v === 'false') return false;
          if (/^\d+$/.test(v)) return Number(v);
          return v;
        }),
    ),
  })
  .superRefine((config, check) => {
    if (config.PAYMENT_PROVIDER !== 'razorpay') return;
    for (const name of ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const) {
      if (!config[name]) {
        check.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required when PAYMENT_PROVIDER=razorpay',
        });
      }
    }
    if (config.PAYMENT_TEST_GATEWAY) {
      check.addIssue({
        code: 'custom',
        path: ['PAYMENT_TEST_GATEWAY'],
        message: "is the default provider's simulation: not with PAYMENT_PROVIDER=razorpay",
      });
    }
  });

export type TServerConfig = z.infer<typeof ZServerConfig> & {
  DATA_DIR: string;
  /** PAYMENT_PROVIDER=razorpay: its settings (all present, checked above); else null. */
  razorpay: TRazorpayOptions | null;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): TServerConfig {
  const parsed = ZServerConfig.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = i.path.join('.');
        const value = env[name];
        // URLs may carry passwords; secrets are never echoed.
        const shown =
          value === undefined || /URL$|SECRET/.test(name) ? '' : ` (got ${JSON.stringify(value)})`;
        return `${name}: ${i.message}${shown}`;
      }),
    );
  }
  const { data } = parsed;
  return {
    ...data,
    razorpay:
      data.PAYMENT_PROVIDER === 'razorpay' &&
      data.RAZORPAY_KEY_ID &&
      data.RAZORPAY_KEY_SECRET &&
      data.RAZORPAY_WEBHOOK_SECRET
        ? {
            keyId: data.RAZORPAY_KEY_ID,
            keySecret: data.RAZORPAY_KEY_SECRET,
            webhookSecret: data.RAZORPAY_WEBHOOK_SECRET,
            apiUrl: data.RAZORPAY_API_URL,
          }
        : null,
    DATA_DIR: path.resolve(cwd, parsed.data.DATA_DIR),
    ...(parsed.data.WEB_DIST_DIR ? { WEB_DIST_DIR: path.resolve(cwd, parsed.data.WEB_DIST_DIR) } : {}),
    ...(parsed.data.ROUTER_RELEASES_DIR
      ? { ROUTER_RELEASES_DIR: path.resolve(cwd, parsed.data.ROUTER_RELEASES_DIR) }
      : {}),
    ...(parsed.data.TRAINING_VIDEOS_DIR
      ? { TRAINING_VIDEOS_DIR: path.resolve(cwd, parsed.data.TRAINING_VIDEOS_DIR) }
      : {}),
  };
}
