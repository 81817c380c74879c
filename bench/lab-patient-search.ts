/**
 * Patient search as you type at size (issue 25 §1 and §7: p95 ≤ 30 ms): one lab (a center) with N
 * patients — 1,000,000 on PostgreSQL with DATABASE_URL, 100,000 on PGlite — written in SQL
 * (INSERT … SELECT generate_series): names 'Given Surname' from 80 × 150 real-looking names (so a
 * surname is ≈ 0.7 % of the patients), 10-digit mobiles starting 6-9, UHIDs 'UH' + sequence, the
 * designations and genders of spec-lab §3, ages 0-90. Then the front desk's calls through
 * `app.inject` (routing, session, zod, the search's queries, serialisation; no network), as a
 * receptionist types:
 *   - POST /api/lab/register-patient/search {name}: 1, 2, 3 … 8 letters of a patient's given name,
 *     then 3 … 6 letters of a surname (the "anywhere in the name" path);
 *   - POST /api/lab/register-patient/search {mobileNumber}: 1 … 10 digits of a patient's mobile;
 *   - POST /api/lab/all-patient/search: the list's first page, and filtered by a surname.
 * The database is kept and reused (PGlite under $TMPDIR/radflow-bench-lab-patients-<N>, PostgreSQL
 * database radflow_bench_lab_patients_<N>); --fresh re-seeds.
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/lab-patient-search.ts [--pg-patients 1000000]
 *        [--pglite-patients 100000] [--samples 200] [--warmup 20] [--only postgres|pglite] [--fresh]
 *        [--json] [--out bench/results/<date>-lab-patient-search.json]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';
import { type TBenchDbKind, type TSqlSession, sessionOf } from './lib/worklist-seed.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const only = (() => {
  const at = args.indexOf('--only');
  return at >= 0 ? (args[at + 1] as TBenchDbKind) : null;
})();
const outFile = (() => {
  const at = args.indexOf('--out');
  return at >= 0 ? args[at + 1] : null;
})();
const samples = option('--samples', 200);
const warmup = option('--warmup', 20);
const fresh = args.includes('--fresh');
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const TARGET_P95_MS = 30;
const BENCH_GROUP = 'Bench lab patients group';

const GIVEN = (
  'Aarav Vivaan Aditya Arjun Sai Reyansh Krishna Ishaan Rohan Kabir Ananya Diya Saanvi Aadhya ' +
  'Myra Aarohi Pari Anika Navya Riya Priya Neha Pooja Kavya Meera Lakshmi Suresh Ramesh Mahesh ' +
  'Ganesh Rajesh Dinesh Mukesh Sunil Anil Vijay Sanjay Ajay Manoj Deepak Fatima Ayesha Zainab ' +
  'Imran Farhan Salman Mary Joseph Thomas George Maria Anna John Peter Paul David James Sarah ' +
  'Emma Olivia Liam Noah Lucas Sofia Elena Marco Luca Yuki Hiro Mei Ling Kwame Amara Chidi Ngozi Omar Leila'
).split(' ');
const SURNAMES = (
  'Sharma Verma Iyer Nair Reddy Menon Pillai Kulkarni Deshpande Chatterjee Banerjee Mukherjee ' +
  'Ghosh Bose Sengupta Chowdhury Patel Shah Mehta Desai Joshi Trivedi Pandya Kapoor Malhotra Khanna ' +
  'Bhatia Sethi Grover Ahluwalia Sandhu Gill Dhillon Brar Grewal Rathore Chauhan Solanki Parmar ' +
  'Qureshi Siddiqui Ansari Farooqui Rizvi Naqvi Hashmi Haider Zaidi Fernandes Dsouza Pereira Rodrigues ' +
  'Gomes Almeida Mascarenhas Kamath Shenoy Hegde Acharya Upadhyay Tripathi Dwivedi Chaturvedi ' +
  'Srivastava Saxena Agarwal Goyal Mittal Bansal Singhal Jindal Garg Tiwari Mishra Pandey Dubey ' +
  'Yadav Thakur Rawat Negi Bisht Rana Okafor Adeyemi Mensah Owusu Kamau Wanjiru Mwangi Haddad Nasser ' +
  'Khalil Mansour Yilmaz Demir Kaya Novak Horvat Kowalski Nowicki Lindqvist Johansson Eriksson ' +
  'Virtanen Korhonen Jensen Nielsen Schmidt Schneider Fischer Weber Wagner Becker Hoffmann Rossi ' +
  'Russo Ferrari Esposito Bianchi Romano Garcia Martinez Lopez Gonzalez Hernandez Moreno Alvarez ' +
  'Dubois Lefebvre Moreau Laurent Girard Tanaka Watanabe Yamamoto Nakamura Kobayashi Wong Chan ' +
  'Leung Nguyen Tran Pham Murphy Kelly Walsh Brennan Oconnor Thompson Robinson Whitaker Pemberton'
).split(' ');
const DESIGNATIONS = ['MR', 'MRS', 'MISS', 'DR', 'Prof', 'B/O', 'Baby', 'MASTER'];

const textArray = (values: readonly string[]) =>
  `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

interface TSeed {
  userId: number;
  patients: number;
}

function locationOf(kind: TBenchDbKind, n: number): string {
  if (kind === 'pglite') return join(tmpdir(), `radflow-bench-lab-patients-${n}`);
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/radflow_bench_lab_patients_${n}`;
  return url.toString();
}

async function openDatabase(kind: TBenchDbKind, n: number): Promise<DbHandle> {
  const location = locationOf(kind, n);
  if (kind === 'pglite') {
    if (fresh) await rm(location, { recursive: true, force: true });
    await mkdir(location, { recursive: true });
    return openPglite({ dataDir: join(location, 'db') });
  }
  const name = new URL(location).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return openPostgres(location, { max: 10 });
}

/** The lab (group, center, receptionist) and its N patients, unless a finished seed is there. */
async function seed(session: TSqlSession, kind: TBenchDbKind, n: number): Promise<TSeed> {
  const found = await session.rows<{ user_id: number; patients: string }>(`
    SELECT u.id AS user_id, (SELECT count(*) FROM lab_patients p WHERE p.lab_owner_id = u.center_id)::text AS patients
    FROM users u JOIN groups g ON g.id = u.group_id WHERE g.name = '${BENCH_GROUP}'`);
  if (found[0] && Number(found[0].patients) === n) {
    log(`reusing ${kind} bench database with ${n} patients`);
    return { userId: found[0].user_id, patients: n };
  }
  if (found[0]) throw new Error(`the ${kind} bench database holds another seed: run with --fresh`);
  log(`seeding ${n} patients into ${kind}`);
  const started = Date.now();
  const [group] = await session.rows<{ id: number }>(
    `INSERT INTO groups (name) VALUES ('${BENCH_GROUP}') RETURNING id`,
  );
  const [center] = await session.rows<{ id: number }>(
    `INSERT INTO centers (group_id, name, email, ae_titles) VALUES (${group!.id}, 'Bench lab', 'bench-lab@bench.local', '{}') RETURNING id`,
  );
  const [user] = await session.rows<{ id: number }>(`
    INSERT INTO users (email, password_hash, roles, group_id, center_id, identifier)
    VALUES ('bench-receptionist@bench.local', 'no-sign-in', '{ROLE_LABS_RECEPTIONIST}', ${group!.id}, ${center!.id}, 'Bench Receptionist')
    RETURNING id`);
  // The secondary indexes are built once over the loaded rows (many times cheaper than row by row).
  const indexes = await session.rows<{ name: string; definition: string }>(`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE tablename = 'lab_patients' AND indexname <> 'lab_patients_pkey'`);
  for (const index of indexes) await session.exec(`DROP INDEX ${index.name}`);
  const h = (k: number) => `(hashint4(i # ${k}) & 2147483647)`;
  const pick = (values: readonly string[], k: number) =>
    `(${textArray(values)})[1 + ${h(k)} % ${values.length}]`;
  await session.exec(`
    INSERT INTO lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name, mobile_number, gender,
      designation, age_string, age_years, created_by, created_at, updated_at)
    SELECT ${group!.id}, 'CENTER', ${center!.id}, 'UH' || i,
      ${pick(GIVEN, 11)} || ' ' || ${pick(SURNAMES, 13)},
      (6 + ${h(17)} % 4)::text || lpad((${h(19)} % 1000000000)::text, 9, '0'),
      (ARRAY['M','F','O'])[1 + ${h(23)} % 3],
      ${pick(DESIGNATIONS, 29)},
      (${h(31)} % 90)::text || 'Y', ${h(31)} % 90,
      'bench', now() - (${n} - i) * interval '1 minute', now()
    FROM generate_series(1, ${n}) AS i`);
  log(`  patients: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const indexed = Date.now();
  for (const index of indexes) await session.exec(index.definition);
  log(`  indexes: ${((Date.now() - indexed) / 1000).toFixed(1)} s`);
  await session.exec(`
    INSERT INTO lab_prefixes (scope, owner_id, prefix, sequence, uhid_prefix, uhid_sequence)
    VALUES ('CENTER', ${center!.id}, 'INV', 1, 'UH', ${n + 1})`);
  await session.exec(kind === 'postgres' ? 'VACUUM ANALYZE lab_patients' : 'ANALYZE lab_patients');
  return { userId: user!.id, patients: n };
}

interface TCall {
  url: string;
  body: Record<string, unknown>;
}
interface TScenario {
  key: string;
  label: string;
  calls: TCall[];
}

/** What a receptionist types, from real patients of the seed. */
async function scenariosOf(session: TSqlSession): Promise<TScenario[]> {
  const people = await session.rows<{ name: string; mobile_number: string }>(
    'SELECT name, mobile_number FROM lab_patients ORDER BY hashint4(id) LIMIT 60',
  );
  const search = '/api/lab/register-patient/search';
  const typed = (text: string, from: number, to: number) =>
    Array.from({ length: Math.min(to, text.length) - from + 1 }, (_, i) => text.slice(0, from + i));
  const givenName = people.flatMap((p) =>
    typed((p.name.split(' ')[0] ?? '').toLowerCase(), 1, 8).map((name) => ({ url: search, body: { name } })),
  );
  const surname = people.flatMap((p) =>
    typed((p.name.split(' ')[1] ?? '').toLowerCase(), 3, 6).map((name) => ({ url: search, body: { name } })),
  );
  const mobile = people.flatMap((p) =>
    typed(p.mobile_number, 1, 10).map((mobileNumber) => ({ url: search, body: { mobileNumber } })),
  );
  const list = '/api/lab/all-patient/search';
  return [
    { key: 'givenName', label: 'as you type: 1-8 letters of a given name', calls: givenName },
    { key: 'surname', label: 'as you type: 3-6 letters of a surname (anywhere)', calls: surname },
    { key: 'mobile', label: 'as you type: 1-10 digits of a mobile', calls: mobile },
    {
      key: 'listFirstPage',
      label: 'all-patients list: first page',
      calls: [{ url: list, body: { page: 0, size: 20 } }],
    },
    {
      key: 'listSurname',
      label: 'all-patients list: a surname, with the total',
      calls: people.map((p) => ({ url: list, body: { name: p.name.split(' ')[1], size: 20 } })),
    },
  ];
}

async function send(app: FastifyInstance, cookie: string, call: TCall) {
  const started = process.hrtime.bigint();
  const response = await app.inject({
    method: 'POST',
    url: call.url,
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
      'content-type': 'application/json',
      ...BENCH_DEVICE_HEADERS,
    },
    payload: JSON.stringify(call.body),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.statusCode !== 200) {
    throw new Error(
      `${call.url} ${JSON.stringify(call.body)}: ${response.statusCode} ${response.body.slice(0, 300)}`,
    );
  }
  const answer = response.json() as unknown[] | { content: unknown[] };
  return { ms, found: Array.isArray(answer) ? answer.length : answer.content.length };
}

async function measure(kind: TBenchDbKind, n: number) {
  const handle = await openDatabase(kind, n);
  await handle.migrate();
  const session = await sessionOf(kind, handle);
  let seeded: TSeed;
  let scenarios: TScenario[];
  try {
    seeded = await seed(session, kind, n);
    scenarios = await scenariosOf(session);
  } finally {
    session.release();
  }
  const app = await buildApp({
    db: handle.db,
    blobs: await new FsBlobStore(await mkdtemp(join(tmpdir(), 'radflow-bench-blobs-'))).init(),
    logger: { level: 'error', stream: process.stderr },
    // No load shedding: a slow call is a figure here, not a 503.
    maxBusyMs: 0,
  });
  try {
    await app.ready();
    const { token } = await createSession(handle.db, {
      userId: seeded.userId,
      deviceId: null,
      now: new Date(),
    });
    const rows = [];
    for (const scenario of scenarios) {
      const callOf = (i: number) => scenario.calls[i % scenario.calls.length] as TCall;
      for (let i = 0; i < warmup; i++) await send(app, token, callOf(i * 7 + 3));
      const times: number[] = [];
      const found: number[] = [];
      for (let i = 0; i < samples; i++) {
        const r = await send(app, token, callOf(i));
        times.push(r.ms);
        found.push(r.found);
      }
      const s = summary(times);
      found.sort((a, b) => a - b);
      const row = {
        key: scenario.key,
        label: scenario.label,
        ...s,
        medianFound: found[Math.floor(found.length / 2)] ?? 0,
        meetsTarget: s.p95Ms <= TARGET_P95_MS,
      };
      log(
        `  ${kind} ${row.label}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms (median found ${row.medianFound})`,
      );
      rows.push(row);
    }
    return { kind, patients: seeded.patients, targetP95Ms: TARGET_P95_MS, scenarios: rows };
  } finally {
    await app.close();
    await handle.close();
  }
}

const kinds: Array<[TBenchDbKind, number]> = [];
if (process.env.DATABASE_URL && only !== 'pglite')
  kinds.push(['postgres', option('--pg-patients', 1_000_000)]);
if (only !== 'postgres') kinds.push(['pglite', option('--pglite-patients', 100_000)]);
const results = [];
for (const [kind, n] of kinds) results.push(await measure(kind, n));
const report = {
  script: 'bench/lab-patient-search.ts',
  date: new Date().toISOString(),
  machine: { cores: availableParallelism(), loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) },
  samples,
  warmup,
  timed: 'server time: app.inject in process (no network)',
  results,
};
if (outFile) await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
if (asJson) out(JSON.stringify(report, null, 2));
else {
  out(`| database | call | p50 ms | p95 ms | max ms | median found | p95 ≤ ${TARGET_P95_MS} |`);
  out('|---|---|---|---|---|---|---|');
  for (const r of results) {
    for (const s of r.scenarios) {
      out(
        `| ${r.kind} (${r.patients.toLocaleString('en')} patients) | ${s.label} | ${s.p50Ms} | ${s.p95Ms} | ${s.maxMs} | ${s.medianFound} | ${s.meetsTarget ? 'yes' : 'no'} |`,
      );
    }
  }
  out(`load average at the end: ${report.machine.loadAverage.join(' ')}`);
}
