/**
 * POST /chat-thread/beat with 2,000 users online (issue 23 §6: p95 ≤ 20 ms on PostgreSQL), PGlite
 * beside it for comparison. SERVER time: `app.inject` into the app `buildApp` makes, in process —
 * routing, session lookup, zod, the presence upsert, the new-messages query (the access rule in its
 * WHERE) and, for doctors and centers, the group's online doctors.
 *
 * The seed (fresh each run): one group of 2,000 users, every one ONLINE — 200 doctors, 1,600 centre
 * users over 40 centres, 100 assignors, 100 typists (the whole group in one list is the worst case of
 * the online dots) — 20,000 study rows (a quarter assigned) and 20,000 chat messages on 5,000 threads,
 * one every 30 s over the last week (ids grow with time), each seen by its sender only.
 * Two calls, each after warm-up, users taken in a fixed spread over all 2,000:
 *   - the regular beat: ONLINE, fetchFrom 11 minutes back (the previous beat, less the overlap);
 *   - the first beat of a tab: fetchFrom a day back (the web's first ask).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/beat.ts [--samples 600] [--warmup 50]
 *        [--only postgres|pglite] [--out bench/results/2026-11-27-beat.json]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';

type TKind = 'postgres' | 'pglite';
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] as string) : fallback;
};
const samples = Number(option('--samples', '600'));
const warmup = Number(option('--warmup', '50'));
const only = option('--only', '') as TKind | '';
const outFile = option('--out', '');
const log = (line: string) => process.stderr.write(`${line}\n`);

const USERS = { doctor: 200, center: 1600, assignor: 100, typist: 100 } as const;
const CENTERS = 40;
const ROWS = 20_000;
const THREADS = 5_000;
const MESSAGES_PER_THREAD = 4;
const TARGET_P95_MS: Record<TKind, number | null> = { postgres: 20, pglite: null };

async function openDatabase(kind: TKind): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'radflow-bench-beat-'));
    const handle = await openPglite({ dataDir: join(dir, 'db') });
    return { handle, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const serverUrl = process.env.DATABASE_URL as string;
  const url = new URL(serverUrl);
  url.pathname = '/radflow_bench_beat';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS radflow_bench_beat WITH (FORCE)');
  await admin.query('CREATE DATABASE radflow_bench_beat');
  await admin.end();
  const handle = await openPostgres(url.toString(), { max: 10 });
  return { handle, drop: async () => undefined };
}

/** A number written into the statement (constants of the seed; typed, unlike a parameter). */
const n = (value: number) => sql.raw(String(Math.trunc(value)));

/** The group, its users (all ONLINE), rows and chat, in a few set-based statements. */
async function seed(handle: DbHandle): Promise<Array<{ id: number; role: string }>> {
  const db = handle.db;
  const now = new Date();
  await db.execute(sql`insert into groups (name) values ('Beat bench group')`);
  await db.execute(sql`
    insert into centers (group_id, name, email)
    select 1, 'Center ' || i, 'center' || i || '@bench.local' from generate_series(1, ${n(CENTERS)}) i`);
  const roleAt = sql`case
      when i <= ${n(USERS.doctor)} then 'ROLE_DOCTOR'
      when i <= ${n(USERS.doctor + USERS.center)} then 'ROLE_CENTER'
      when i <= ${n(USERS.doctor + USERS.center + USERS.assignor)} then 'ROLE_ASSIGNOR'
      else 'ROLE_TYPIST' end`;
  const total = USERS.doctor + USERS.center + USERS.assignor + USERS.typist;
  await db.execute(sql`
    insert into users (email, password_hash, roles, group_id, center_id, identifier)
    select 'user' || i || '@bench.local', 'x', array[${roleAt}], 1,
      case when ${roleAt} = 'ROLE_CENTER' then 1 + (i % ${n(CENTERS)}) end, 'User ' || i
    from generate_series(1, ${n(total)}) i`);
  await db.execute(sql`
    insert into user_presence (user_id, status, updated_at)
    select id, 'ONLINE', ${now.toISOString()}::timestamptz - (random() * interval '9 minutes') from users`);
  await db.execute(sql`
    insert into studies (group_id, center_id, study_instance_uid, patient_name)
    select 1, 1 + (i % ${n(CENTERS)}), '1.2.826.0.1.9.' || i, 'BENCH^' || i from generate_series(1, ${n(ROWS)}) i`);
  await db.execute(sql`
    insert into report_statuses (study_id, group_id, center_id, patient_name, status, assigned_to_user_id)
    select s.id, 1, s.center_id, s.patient_name, 'CREATED',
      case when s.id % 4 = 0 then 1 + (s.id % ${n(USERS.doctor)}) end
    from studies s`);
  await db.execute(sql`
    insert into chat_threads (thread_type, report_status_id)
    select 'REPORT_CHAT', id from report_statuses where id % ${n(ROWS / THREADS)} = 0`);
  // Senders: the row's centre (a centre user of that centre) and an assignor, in turn; one message
  // every 30 s over the last week (ids grow with time, as they do), about 20 in a beat's window.
  await db.execute(sql`
    insert into chat_messages (thread_id, sender_user_id, sender_email, member_type, assigned_to, body, created_at)
    select thread_id, sender_user_id, sender_email, member_type, 'NONE', body,
      ${now.toISOString()}::timestamptz - (${n(THREADS * MESSAGES_PER_THREAD)} - row_number() over (order by k)) * interval '30 seconds'
    from (
      select t.id as thread_id, u.id as sender_user_id, u.email as sender_email,
        case when m % 2 = 0 then 'center' else 'admin' end as member_type, 'Bench message ' || m as body,
        hashint4(t.id * 8 + m) as k
      from chat_threads t
      join report_statuses r on r.id = t.report_status_id
      cross join generate_series(1, ${n(MESSAGES_PER_THREAD)}) m
      join users u on u.id = case when m % 2 = 0
        then ${n(USERS.doctor)} + ${n(CENTERS)} + (r.center_id - 1) + ${n(CENTERS)} * (m % 3)
        else ${n(USERS.doctor + USERS.center)} + 1 + (t.id % ${n(USERS.assignor)}) end
    ) planned
    order by k`);
  await db.execute(sql`
    insert into chat_message_seen (message_id, user_id) select id, sender_user_id from chat_messages`);
  await db.execute(sql`analyze`);
  const users = (await db.execute(sql`select id, roles[1] as role from users order by id`)) as unknown as
    { rows: Array<{ id: number; role: string }> } | Array<{ id: number; role: string }>;
  return Array.isArray(users) ? users : users.rows;
}

const percentile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
const round = (ms: number) => Math.round(ms * 100) / 100;
/** A deterministic spread over [0, 1) (Weyl sequence): every run asks the same users. */
const spread = (i: number) => (i * 0.6180339887498949) % 1;
const utc = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

async function beat(app: FastifyInstance, cookie: string, fetchFrom: Date) {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: 'POST',
    url: '/api/chat-thread/beat',
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
      'content-type': 'application/json',
      ...BENCH_DEVICE_HEADERS,
    },
    payload: JSON.stringify({ status: 'ONLINE', fetchFrom: utc(fetchFrom) }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`beat: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const body = res.json<{ notificationMessages: unknown[]; onlineStatuses: unknown[] }>();
  return { ms, messages: body.notificationMessages.length, dots: body.onlineStatuses.length };
}

async function measure(kind: TKind) {
  const { handle, drop } = await openDatabase(kind);
  const blobRoot = await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'));
  try {
    await handle.migrate();
    log(`${kind}: seeding 2,000 users, ${ROWS} rows, ${THREADS * MESSAGES_PER_THREAD} messages`);
    const users = await seed(handle);
    const cookies: string[] = [];
    for (const user of users) {
      cookies.push(
        (await createSession(handle.db, { userId: user.id, deviceId: null, now: new Date() })).token,
      );
    }
    const app = await buildApp({
      db: handle.db,
      blobs: await new FsBlobStore(blobRoot).init(),
      logger: { level: 'error', stream: process.stderr },
      // Calls one after another with PGlite in this thread never let a timer run: the busy-loop
      // shedding would refuse them; this measures the call, not the shedding.
      maxBusyMs: 0,
    });
    await app.ready();
    const scenarios = [
      { key: 'regular', label: 'regular beat (fetchFrom 11 min back)', backMs: 11 * 60_000 },
      { key: 'first', label: "a tab's first beat (fetchFrom a day back)", backMs: 24 * 60 * 60_000 },
    ];
    const results = [];
    for (const scenario of scenarios) {
      const userAt = (i: number) => Math.floor(spread(i) * users.length);
      for (let i = 0; i < warmup; i++) {
        await beat(app, cookies[userAt(samples + i)]!, new Date(Date.now() - scenario.backMs));
      }
      const times: number[] = [];
      const dotsTimes: number[] = [];
      let messages = 0;
      for (let i = 0; i < samples; i++) {
        const r = await beat(app, cookies[userAt(i)]!, new Date(Date.now() - scenario.backMs));
        times.push(r.ms);
        if (r.dots > 0) dotsTimes.push(r.ms);
        messages += r.messages;
      }
      times.sort((a, b) => a - b);
      dotsTimes.sort((a, b) => a - b);
      results.push({
        key: scenario.key,
        label: scenario.label,
        samples,
        p50: round(percentile(times, 0.5)),
        p95: round(percentile(times, 0.95)),
        p99: round(percentile(times, 0.99)),
        // The callers who also get the group's online dots (doctors and centres: ~90 % of the users).
        withDotsP95: dotsTimes.length ? round(percentile(dotsTimes, 0.95)) : null,
        meanMessagesAnswered: round(messages / samples),
      });
      log(`${kind} ${scenario.label}: p50 ${results.at(-1)!.p50} ms, p95 ${results.at(-1)!.p95} ms`);
    }
    await app.close();
    return { kind, users: users.length, targetP95Ms: TARGET_P95_MS[kind], scenarios: results };
  } finally {
    await handle.close();
    await drop();
    await rm(blobRoot, { recursive: true, force: true });
  }
}

async function main() {
  const kinds: TKind[] = only ? [only] : process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];
  const loadBefore = loadavg();
  const databases = [];
  for (const kind of kinds) databases.push(await measure(kind));
  const report = {
    script: 'bench/beat.ts',
    date: new Date().toISOString(),
    machine: {
      cpus: availableParallelism(),
      model: cpus()[0]?.model ?? '',
      loadavgBefore: loadBefore.map(round),
      loadavgAfter: loadavg().map(round),
      node: process.version,
    },
    note:
      'Server time through app.inject, in process. The machine is shared (2 cores, four engineers ' +
      'building and testing at once): the load average above says how busy it was; figures are ' +
      'noisy and an upper bound of a quiet machine.',
    samples,
    warmup,
    databases,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (outFile) await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(String(error instanceof Error ? (error.stack ?? error.message) : error));
    process.exit(1);
  },
);
