/**
 * GET /turnaround/at-risk with many open studies (issue 24 §4; optional figure): SERVER time through
 * `app.inject` into the app `buildApp` makes, in process — session, the group's limit, the open rows
 * under the access rule, the doctors and their presence, the pace query, core forecastTurnaround and
 * the answer's serialisation. PGlite by default; PostgreSQL too with DATABASE_URL.
 *
 * The seed (fresh each run): one group, 20 centres, 60 doctors (40 of them ONLINE), one assignor;
 * `--open N` open study rows (default 10,000) uploaded over the last 6 hours, 85 % assigned (some
 * doctors busier), 3 % urgent; 30 sign-offs per doctor over the last 10 hours (their pace); a
 * signOffTimeLimit of 240 minutes, so a share of the rows is at risk or breached, as on a bad day.
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/turnaround.ts [--open 10000] [--samples 100]
 *        [--warmup 10] [--only postgres|pglite] [--out bench/results/<date>-turnaround.json]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SESSION_COOKIE_NAME, type TTurnaroundAtRiskResponse } from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { savePreferenceSection } from '../apps/server/src/modules/preferences/preferences.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';

type TKind = 'postgres' | 'pglite';
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] as string) : fallback;
};
const openRows = Number(option('--open', '10000'));
const samples = Number(option('--samples', '100'));
const warmup = Number(option('--warmup', '10'));
const only = option('--only', '') as TKind | '';
const outFile = option('--out', '');
const log = (line: string) => process.stderr.write(`${line}\n`);

const CENTERS = 20;
const DOCTORS = 60;
const ONLINE = 40;
const SIGN_OFFS_PER_DOCTOR = 30;
const LIMIT_MINUTES = 240;

async function openDatabase(kind: TKind): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'radflow-bench-turnaround-'));
    const handle = await openPglite({ dataDir: join(dir, 'db') });
    return { handle, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const serverUrl = process.env.DATABASE_URL as string;
  const url = new URL(serverUrl);
  url.pathname = '/radflow_bench_turnaround';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS radflow_bench_turnaround WITH (FORCE)');
  await admin.query('CREATE DATABASE radflow_bench_turnaround');
  await admin.end();
  const handle = await openPostgres(url.toString(), { max: 10 });
  return { handle, drop: async () => undefined };
}

/** A number written into the statement (constants of the seed; typed, unlike a parameter). */
const n = (value: number) => sql.raw(String(Math.trunc(value)));

/** The group, its people, open rows and sign-off history, in a few set-based statements. */
async function seed(handle: DbHandle, now: Date): Promise<number> {
  const db = handle.db;
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`insert into groups (name) values ('Turnaround bench group')`);
  await db.execute(sql`
    insert into centers (group_id, name, email)
    select 1, 'Center ' || i, 'center' || i || '@bench.local' from generate_series(1, ${n(CENTERS)}) i`);
  // Users 1..DOCTORS are doctors, the next one the assignor.
  await db.execute(sql`
    insert into users (email, password_hash, roles, group_id, identifier)
    select 'doctor' || i || '@bench.local', 'x', array['ROLE_DOCTOR'], 1, 'Dr ' || i
    from generate_series(1, ${n(DOCTORS)}) i`);
  await db.execute(sql`
    insert into users (email, password_hash, roles, group_id, identifier)
    values ('assignor@bench.local', 'x', array['ROLE_ASSIGNOR'], 1, 'Assignor')`);
  await db.execute(sql`
    insert into user_presence (user_id, status, updated_at)
    select id, case when id <= ${n(ONLINE)} then 'ONLINE' else 'OFFLINE' end, ${at} - interval '2 minutes'
    from users where id <= ${n(DOCTORS)}`);
  const history = DOCTORS * SIGN_OFFS_PER_DOCTOR;
  await db.execute(sql`
    insert into studies (group_id, center_id, study_instance_uid, patient_name, modalities)
    select 1, 1 + (i % ${n(CENTERS)}), '1.2.826.0.1.77.' || i, 'BENCH^' || i,
      array[(array['CT','MR','CR','US'])[1 + i % 4]]
    from generate_series(1, ${n(openRows + history)}) i`);
  // Open rows: uploaded over the last 6 hours; assigned to a doctor (the low ids busier) or not.
  await db.execute(sql`
    insert into report_statuses (study_id, group_id, center_id, patient_name, status, urgent,
      assigned_to_user_id, created_at, first_upload_completed_at)
    select s.id, 1, s.center_id, s.patient_name,
      case when s.id % 5 = 0 then 'CREATED' else 'HISTORY_CREATED' end,
      s.id % 33 = 0,
      case when hashint4(s.id) % 100 < 85 then 1 + (abs(hashint4(s.id * 7)) % ${n(DOCTORS)}) * (abs(hashint4(s.id * 3)) % 100) / 100 end,
      ${at} - (s.id::float / ${n(openRows)}) * interval '6 hours' - interval '1 minute',
      ${at} - (s.id::float / ${n(openRows)}) * interval '6 hours'
    from studies s where s.id <= ${n(openRows)}`);
  // History: each doctor's sign-offs, one every 20 minutes over the last 10 hours.
  await db.execute(sql`
    insert into report_statuses (study_id, group_id, center_id, patient_name, status, assigned_to_user_id, signed_off_at)
    select s.id, 1, s.center_id, s.patient_name, 'SIGNED_OFF', 1 + (s.id - ${n(openRows)} - 1) % ${n(DOCTORS)},
      ${at} - ((s.id - ${n(openRows)} - 1) / ${n(DOCTORS)}) * interval '20 minutes'
    from studies s where s.id > ${n(openRows)}`);
  await db.execute(sql`
    insert into reports (report_status_id, name, content_html, doctor_user_id, typed_by_user_id, signed_off_by_user_id, signed_off_at)
    select id, 'Report', '<p>Bench</p>', assigned_to_user_id, assigned_to_user_id, assigned_to_user_id, signed_off_at
    from report_statuses where status = 'SIGNED_OFF'`);
  await savePreferenceSection(db, {
    ownerId: 1,
    section: 'ADMIN_PREFERENCES',
    value: { signOffTimeLimit: LIMIT_MINUTES },
    updatedBy: 'bench',
  });
  await db.execute(sql`analyze`);
  return DOCTORS + 1;
}

async function atRisk(app: FastifyInstance, cookie: string) {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: 'GET',
    url: '/api/turnaround/at-risk',
    headers: { cookie: `${SESSION_COOKIE_NAME}=${cookie}`, ...BENCH_DEVICE_HEADERS },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`at-risk: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const body = res.json<TTurnaroundAtRiskResponse>();
  return { ms, rows: body.rows, counts: body.counts, bytes: res.body.length };
}

async function measure(kind: TKind) {
  const { handle, drop } = await openDatabase(kind);
  const blobRoot = await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'));
  try {
    await handle.migrate();
    log(`${kind}: seeding ${openRows} open rows, ${DOCTORS * SIGN_OFFS_PER_DOCTOR} sign-offs`);
    const now = new Date();
    const assignorId = await seed(handle, now);
    const cookie = (await createSession(handle.db, { userId: assignorId, deviceId: null, now })).token;
    const app = await buildApp({
      db: handle.db,
      blobs: await new FsBlobStore(blobRoot).init(),
      logger: { level: 'error', stream: process.stderr },
      // Calls one after another with PGlite in this thread never let a timer run: the busy-loop
      // shedding would refuse them; this measures the call, not the shedding.
      maxBusyMs: 0,
    });
    await app.ready();
    for (let i = 0; i < warmup; i++) await atRisk(app, cookie);
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof atRisk>> | undefined;
    for (let i = 0; i < samples; i++) {
      last = await atRisk(app, cookie);
      times.push(last.ms);
    }
    await app.close();
    const stats = summary(times);
    const rows = last?.rows ?? [];
    log(`${kind}: p50 ${stats.p50Ms} ms, p95 ${stats.p95Ms} ms, ${rows.length} rows listed`);
    return {
      kind,
      openRows,
      ...stats,
      // All at risk and breached (the answer's counts); the rows are the first AT_RISK_ROWS_MAX.
      counts: last?.counts ?? null,
      listed: {
        rows: rows.length,
        withSuggestion: rows.filter((r) => r.suggested !== null).length,
        answerBytes: last?.bytes ?? 0,
      },
    };
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
  const round = (x: number) => Math.round(x * 100) / 100;
  const report = {
    script: 'bench/turnaround.ts',
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
      'building and testing at once): the load average above says how busy it was.',
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
