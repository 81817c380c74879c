import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { expect, inject } from 'vitest';
import {
  CENTER_ROLES,
  SESSION_COOKIE_NAME,
  calendarDayIn,
  startOfDayIn,
  type TGroupFlags,
  type TPreferenceSection,
  type TRole,
} from '@radflow/core';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type Db, type DbHandle, openPglite, openPostgres } from '../src/db/client.js';
import { extractPgliteTar } from '../src/db/pglite-template.js';
import { centers, groups, messageOutbox, users } from '../src/db/schema.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { savePreferenceSection } from '../src/modules/preferences/preferences.js';
import { seedDemo } from '../src/modules/seed/seed-demo.js';
import { seedDemoStudies } from '../src/modules/seed/seed-demo-studies.js';
import { type BlobStore, FsBlobStore } from '../src/modules/storage/blob-store.js';
import { withDatabase } from './global-setup.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Moves the app's clock (starts at the real time). */
  clock: { now: Date; advance(seconds: number): void };
  blobs: BlobStore;
  close(): Promise<void>;
}

async function openTestDatabase(): Promise<DbHandle> {
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl) {
    const name = `radflow_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE radflow_test_template`);
    await admin.end();
    const handle = await openPostgres(withDatabase(postgresUrl, name), { max: 4 });
    return {
      ...handle,
      async close() {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: postgresUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  }
  const snapshotPath = inject('pgliteSnapshotPath');
  if (!snapshotPath) throw new Error('global setup provided no database');
  return openPglite({ loadDataDir: new SnapshotBlob(await readSnapshot(snapshotPath)) });
}

/**
 * A migrated PGlite data directory at `dataDir` (PGlite runs), written from the migrated template
 * whole (as a server's new data directory is; the in-memory snapshot is trimmed), for tests of
 * PGlite on disk whose subject is not the directory's creation: the new directory's initdb (a
 * child process) and migrations on disk cost seconds of CPU, and
 * client.test.ts covers them. On a PostgreSQL run there is no template: nothing is written, and
 * PGlite makes the directory as it would anyway.
 */
export async function writeMigratedDataDir(dataDir: string): Promise<void> {
  const templatePath = inject('pgliteTemplatePath');
  if (!templatePath) return;
  await extractPgliteTar(await readSnapshot(templatePath), dataDir);
}

/**
 * A bare PGlite client (no app, no turns, no drizzle) on the run's migrated snapshot, for tests of
 * PGlite itself: the snapshot spares an in-process initdb of a few seconds. On a PostgreSQL run
 * there is no snapshot, and PGlite makes its database as it would anyway.
 */
export async function bareTestPglite(): Promise<PGlite> {
  const snapshotPath = inject('pgliteSnapshotPath');
  return PGlite.create(
    snapshotPath ? { loadDataDir: new SnapshotBlob(await readSnapshot(snapshotPath)) } : {},
  );
}

/**
 * A snapshot's bytes, read once per worker: the files of a worker share this module
 * (vitest.config.ts), and a snapshot does not change during a run. Every database is
 * still loaded from it anew.
 */
const snapshots = new Map<string, Promise<Uint8Array>>();
function readSnapshot(file: string): Promise<Uint8Array> {
  let bytes = snapshots.get(file);
  if (!bytes) snapshots.set(file, (bytes = readFile(file).then((b) => new Uint8Array(b))));
  return bytes;
}

/**
 * The snapshot as the Blob PGlite loads it from, whose bytes PGlite takes with `arrayBuffer()`:
 * here one copy of them, where Node's Blob reads its parts in chunks and joins them (~100 ms of CPU
 * for the snapshot, per test file).
 */
class SnapshotBlob extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super([]);
    this.#bytes = bytes;
  }
  override get size() {
    return this.#bytes.byteLength;
  }
  override get type() {
    return 'application/x-tar';
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

/** A server on its own migrated database (PGlite, or PostgreSQL with DATABASE_URL), optionally seeded. */
export async function createTestApp(
  opts: { seed?: boolean } & Partial<Omit<BuildAppOptions, 'db'>> = {},
): Promise<TestApp> {
  const handle = await openTestDatabase();
  const blobRoot = await mkdtemp(path.join(tmpdir(), 'radflow-blobs-'));
  const blobs = opts.blobs ?? (await new FsBlobStore(blobRoot).init());
  if (opts.seed) await seedDemo(handle.db);
  // The app's clock runs in real time from `clock.now`, which tests may move.
  const startedAt = Date.now();
  const clock = {
    now: new Date(startedAt),
    advance(seconds: number) {
      this.now = new Date(this.now.getTime() + seconds * 1000);
    },
  };
  const app = await buildApp({
    logger: false,
    // No shedding on the event loop's busy stretches (a timing signal) unless a test asks for it.
    maxBusyMs: 0,
    now: () => new Date(clock.now.getTime() + (Date.now() - startedAt)),
    ...opts,
    db: handle.db,
    blobs,
  });
  await app.ready();
  // As main.ts: the demo studies after the accounts, through the app's ingest and services.
  if (opts.seed) await seedDemoStudies(app.ctx);
  return {
    app,
    db: handle.db,
    clock,
    blobs,
    async close() {
      await app.close();
      await handle.close();
      if (blobs instanceof FsBlobStore) await blobs.close();
      await rm(blobRoot, { recursive: true, force: true });
    },
  };
}

let sequence = 0;
const unique = () =>
  `${Date.now().toString(36)}${(sequence++).toString(36)}${randomBytes(2).toString('hex')}`;

export async function createTestGroup(db: Db, opts: { name?: string } = {}) {
  const [group] = await db
    .insert(groups)
    .values({ name: opts.name ?? `Group ${unique()}` })
    .returning();
  if (!group) throw new Error('group not created');
  return group;
}

export async function createTestCenter(db: Db, opts: { groupId: number; name?: string }) {
  const id = unique();
  const [center] = await db
    .insert(centers)
    .values({
      groupId: opts.groupId,
      name: opts.name ?? `Center ${id}`,
      email: `center-${id}@test.local`,
      aeTitles: [],
    })
    .returning();
  if (!center) throw new Error('center not created');
  return center;
}

export const TEST_PASSWORD = 'test-pass-1';
const hashes = new Map<string, Promise<string>>();
/** argon2 is slow on purpose: hash each distinct test password once per test file. */
const hashOnce = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
};

/** A user with unique e-mail (and mobile number when asked), in a new group unless one is given. */
export async function createTestUser(
  db: Db,
  opts: {
    roles?: TRole[];
    groupId?: number;
    centerId?: number | null;
    password?: string;
    mobileNumber?: string | null;
    hybridModeOn?: boolean;
    active?: boolean;
    identifier?: string;
    proxyUrl?: string | null;
  } = {},
) {
  const groupId = opts.groupId ?? (await createTestGroup(db)).id;
  const password = opts.password ?? TEST_PASSWORD;
  const id = unique();
  const [user] = await db
    .insert(users)
    .values({
      email: `user-${id}@test.local`,
      mobileNumber: opts.mobileNumber ?? null,
      passwordHash: await hashOnce(password),
      roles: opts.roles ?? ['ROLE_DOCTOR'],
      groupId,
      centerId: opts.centerId ?? null,
      identifier: opts.identifier ?? `Test User ${id}`,
      active: opts.active ?? true,
      hybridModeOn: opts.hybridModeOn ?? false,
      proxyUrl: opts.proxyUrl ?? null,
    })
    .returning();
  if (!user) throw new Error('user not created');
  return { ...user, password };
}

/** A group with one center, and the group switches the test needs. */
export async function createTestWorld(db: Db, flags: Partial<TGroupFlags> = {}) {
  const group = await createTestGroup(db);
  const center = await createTestCenter(db, { groupId: group.id });
  if (Object.keys(flags).length > 0) {
    // The switches live in two sections; each key is stored in both, unknown keys are dropped.
    await setGroupPreference(db, group.id, 'GROUP_SWITCHES', flags);
    await setGroupPreference(db, group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', flags);
  }
  return { group, center };
}

/** A random mobile number of the core pattern (10 digits starting 6-9). */
export function uniqueMobile(): string {
  return `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
}

export async function setGroupPreference(
  db: Db,
  groupId: number,
  section: TPreferenceSection,
  value: unknown,
) {
  await savePreferenceSection(db, { ownerId: groupId, section, value, updatedBy: 'test' });
}

/** The six digits of the newest SMS to a mobile number, as the outbox recorded it. */
export async function readOtpFromOutbox(db: Db, mobile: string): Promise<string> {
  const [message] = await db
    .select()
    .from(messageOutbox)
    .where(eq(messageOutbox.recipient, mobile))
    .orderBy(desc(messageOutbox.id))
    .limit(1);
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${mobile}`);
  return code;
}

/**
 * A browser: its own client address and device, the device headers on every request, and a cookie
 * jar for the session cookie.
 */
export class TestClient {
  cookie: string | null = null;
  readonly address: string;
  readonly deviceId: string;
  readonly deviceName: string;

  constructor(
    private readonly app: FastifyInstance,
    opts: { address?: string; deviceId?: string; deviceName?: string } = {},
  ) {
    const b = randomBytes(3);
    this.address = opts.address ?? `10.${b[0]}.${b[1]}.${b[2]}`;
    this.deviceId = opts.deviceId ?? `device-${randomUUID()}`;
    this.deviceName = opts.deviceName ?? 'Test browser';
  }

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      'x-device-id': this.deviceId,
      'x-device-name': this.deviceName,
      ...(this.cookie ? { cookie: `${SESSION_COOKIE_NAME}=${this.cookie}` } : {}),
      ...(opts.headers as Record<string, string> | undefined),
    };
    const response = await this.app.inject({ remoteAddress: this.address, ...opts, headers });
    const set = response.cookies.find((c) => c.name === SESSION_COOKIE_NAME);
    if (set)
      this.cookie = set.value === '' || (set.maxAge !== undefined && set.maxAge <= 0) ? null : set.value;
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({
      method: 'POST',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** Signs in with the JSON form of /api/do-login. */
  login(email: string, password: string) {
    return this.post('/api/do-login', { email, password });
  }
}

/*
 * Signed-in users: one way for every test to get a browser with a session (issue 22 §5). Each makes
 * a new account, so tests never share a session or a user's state.
 */

export type TTestUserOptions = NonNullable<Parameters<typeof createTestUser>[1]>;
export type TTestUser = Awaited<ReturnType<typeof createTestUser>>;
export interface TSignedIn {
  user: TTestUser;
  browser: TestClient;
}
type TPlace = { group: { id: number }; center: { id: number } };

/** A new browser signed in as an existing account (the JSON form of /api/do-login). */
export async function signInAs(
  t: Pick<TestApp, 'app'>,
  account: { email: string; password: string },
): Promise<TestClient> {
  const browser = new TestClient(t.app);
  const res = await browser.login(account.email, account.password);
  expect(res.statusCode, `sign-in of ${account.email}: ${res.body}`).toBe(200);
  return browser;
}

/** A new user (createTestUser's options: in a new group unless one is given), signed in. */
export async function signIn(
  t: Pick<TestApp, 'app' | 'db'>,
  opts: TTestUserOptions = {},
): Promise<TSignedIn> {
  const user = await createTestUser(t.db, opts);
  return { user, browser: await signInAs(t, user) };
}

/** A new user of `roles` in the place's group, at its center when a role belongs to a center. */
export function signInAt(
  t: Pick<TestApp, 'app' | 'db'>,
  place: TPlace,
  roles: TRole[],
  opts: Omit<TTestUserOptions, 'roles' | 'groupId' | 'centerId'> = {},
): Promise<TSignedIn> {
  const atCenter = roles.some((r) => CENTER_ROLES.includes(r));
  return signIn(t, { ...opts, roles, groupId: place.group.id, centerId: atCenter ? place.center.id : null });
}

export interface TSignedInApp extends TestApp, TSignedIn {
  group: Awaited<ReturnType<typeof createTestGroup>>;
  center: Awaited<ReturnType<typeof createTestCenter>>;
  /** Another new user of `roles` in the same group (at its center for a center role), signed in. */
  signIn(roles: TRole[], opts?: Omit<TTestUserOptions, 'roles' | 'groupId' | 'centerId'>): Promise<TSignedIn>;
}

/**
 * The start of most stories: a test app (createTestApp's options), a group with one center (and the
 * group switches `flags` asks for), and a browser signed in as a new user of `roles` (the group's
 * admin unless told) in it.
 */
export async function signedInApp(
  opts: Parameters<typeof createTestApp>[0] & { roles?: TRole[]; flags?: Partial<TGroupFlags> } = {},
): Promise<TSignedInApp> {
  const { roles = ['ROLE_ADMIN'], flags = {}, ...appOptions } = opts;
  const t = await createTestApp(appOptions);
  const place = await createTestWorld(t.db, flags);
  const first = await signInAt(t, place, roles);
  return { ...t, ...place, ...first, signIn: (r, o) => signInAt(t, place, r, o) };
}

/**
 * Moves the app's clock to noon of today in `timeZone` (it runs on from there). A test that
 * compares the days it computes with the days the server computes then cannot straddle that zone's
 * midnight: in CI the two once fell on either side of it, seconds apart.
 */
export function clockAtNoonIn(t: TestApp, timeZone: string): void {
  const day = calendarDayIn(new Date(), timeZone);
  t.clock.now = new Date(startOfDayIn(day, timeZone).getTime() + 12 * 3_600_000);
}
