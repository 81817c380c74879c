/**
 * The front desk at size (issue 25 §7): one center lab with N bills (PGlite 200,000 by default;
 * PostgreSQL 2,000,000 with DATABASE_URL), 1-2 lines each, N/10 patients (at most 1,000,000), 200
 * referring doctors, 40 tests, three slots every day with some booked lines, seeded in SQL
 * (INSERT … SELECT over generate_series) into a fresh database. Then through `app.inject` (routing,
 * session, zod, the service's queries, serialisation; no network) as the lab's receptionist:
 *   - bill save: POST /api/lab/bill, two tests, a 10 % discount and an advance (target p95 ≤ 50 ms);
 *   - billing list: POST /api/lab/bill/search, the Active tab's first pages, the All tab, a 7-day
 *     bill-date range (target p95 ≤ 50 ms);
 *   - slot availability for a week: POST /api/lab/get-all-slot over 7 days (target ≤ 30 ms).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/lab-bills.ts [--bills 200000] [--samples 200]
 *        [--warmup 20] [--json] [--out bench/results/<date>-lab-bills.json]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import type { DbHandle } from '../apps/server/src/db/client.js';
import { centers, groups, users } from '../apps/server/src/db/schema.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { savePreferenceSection } from '../apps/server/src/modules/preferences/preferences.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';
import { openThrowawayDatabase } from './lib/throwaway-database.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const outFile = (() => {
  const at = args.indexOf('--out');
  return at >= 0 ? args[at + 1] : null;
})();
const postgresUrl = process.env.DATABASE_URL ?? null;
const bills = option('--bills', postgresUrl ? 2_000_000 : 200_000);
const samples = option('--samples', 200);
const warmup = option('--warmup', 20);
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const DAY_MS = 86_400_000;
const TESTS = 40;
const DOCTORS = 200;
const SLOTS = ['CT Morning', 'MR Morning', 'US Evening'];

/** Today's midnight in +05:30 as an instant, for slot windows. */
const istMidnight = (from: Date) => {
  const day = new Date(from.getTime() + 330 * 60_000).toISOString().slice(0, 10);
  return new Date(Date.parse(`${day}T00:00:00Z`) - 330 * 60_000);
};

async function seed(handle: DbHandle) {
  const db = handle.db;
  const exec = (text: string) => db.execute(sql.raw(text));
  const [group] = await db.insert(groups).values({ name: 'Bench lab group' }).returning();
  const [center] = await db
    .insert(centers)
    .values({ groupId: group!.id, name: 'Bench lab', email: 'bench-lab@bench.local', aeTitles: [] })
    .returning();
  const [user] = await db
    .insert(users)
    .values({
      email: 'bench-reception@bench.local',
      passwordHash: 'x',
      roles: ['ROLE_LABS_RECEPTIONIST'],
      groupId: group!.id,
      centerId: center!.id,
      identifier: 'Bench reception',
    })
    .returning();
  const g = group!.id;
  const c = center!.id;
  const owner = `${g}, 'CENTER', ${c}`;
  const patients = Math.min(1_000_000, Math.max(1000, Math.floor(bills / 10)));
  const started = Date.now();
  await savePreferenceSection(db, {
    ownerId: g,
    section: 'GROUP_SWITCHES',
    value: { appointmentSupportRIS: true },
    updatedBy: 'bench',
  });
  const timing = { startTime: '09:00', endTime: '13:00', appointmentLimit: 40 };
  await savePreferenceSection(db, {
    scope: 'CENTER',
    ownerId: c,
    section: 'LAB_SLOTS',
    value: {
      slots: SLOTS.map((name, i) => ({
        name,
        labModalities: [['CT', 'MR', 'US'][i]],
        weeklyTiming: Object.fromEntries(['0', '1', '2', '3', '4', '5', '6'].map((d) => [d, timing])),
        blockedDays: [],
      })),
    },
    updatedBy: 'bench',
  });
  await exec(`INSERT INTO lab_prefixes (scope, owner_id, prefix, sequence, uhid_prefix, uhid_sequence)
    VALUES ('CENTER', ${c}, 'INV', ${bills + 1}, 'UH', ${patients + 1})`);
  await exec(`INSERT INTO lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name, mobile_number,
      gender, designation, age_string, age_years, created_by)
    SELECT ${owner}, 'UH' || i, 'Patient ' || i, '9' || lpad((i * 7919 % 1000000000)::text, 9, '0'),
      (ARRAY['M','F','O'])[1 + i % 3], (ARRAY['MR','MRS','MISS'])[1 + i % 3], (20 + i % 60) || ' Y', 20 + i % 60, 'bench'
    FROM generate_series(1, ${patients}) i`);
  await exec(`INSERT INTO lab_referring_doctors (group_id, lab_scope, lab_owner_id, name, mobile_number, created_by)
    SELECT ${owner}, 'Dr Bench ' || i, '98' || lpad(i::text, 8, '0'), 'bench' FROM generate_series(1, ${DOCTORS}) i`);
  await exec(`INSERT INTO lab_tests (group_id, lab_scope, lab_owner_id, test_code, test_name, test_type, lab_modality,
      price_minor, created_by)
    SELECT ${owner}, 'T' || i, 'Bench test ' || i, 'NORMAL', (ARRAY['CT','MR','DX','US'])[1 + i % 4],
      (300 + i * 50) * 100, 'bench' FROM generate_series(1, ${TESTS}) i`);
  const firstIds = await db.execute(
    sql.raw(`SELECT (SELECT min(id) FROM lab_patients) AS p, (SELECT min(id) FROM lab_referring_doctors) AS d,
      (SELECT min(id) FROM lab_tests) AS t`),
  );
  const row = (firstIds as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
  const first = { p: Number(row.p), d: Number(row.d), t: Number(row.t) };
  const now = Date.now();
  // Bills over the last two years, newest last; 5 % cancelled. Amounts as the lines below make them.
  await exec(`INSERT INTO lab_bills (group_id, lab_scope, lab_owner_id, invoice_number, status, bill_date,
      initial_bill_date, patient_id, referring_doctor_id, categories, total_minor, discount_basis_points,
      discount_minor, final_minor, advance_paid_minor, due_minor, payment_method, created_by, created_at)
    SELECT ${owner}, 'INV' || i, CASE WHEN i % 20 = 0 THEN 'CANCELLED' ELSE 'OPEN' END,
      to_timestamp(${(now - 730 * DAY_MS) / 1000} + i * ${(730 * 86400) / bills}::float8),
      to_timestamp(${(now - 730 * DAY_MS) / 1000} + i * ${(730 * 86400) / bills}::float8),
      ${first.p} + i % ${patients}, ${first.d} + i % ${DOCTORS}, '[]'::jsonb,
      v.total, 0, 0, v.total, v.total / 2, v.total - v.total / 2, 'UPI', 'bench',
      to_timestamp(${(now - 730 * DAY_MS) / 1000} + i * ${(730 * 86400) / bills}::float8)
    FROM generate_series(1, ${bills}) i,
      LATERAL (SELECT ((300 + (1 + i % ${TESTS}) * 50) + CASE WHEN i % 2 = 0 THEN 300 + (1 + (i + 7) % ${TESTS}) * 50 ELSE 0 END) * 100 AS total) v`);
  await exec(`INSERT INTO lab_bill_tests (bill_id, position, lab_test_id, test_code, test_name, lab_modality, department,
      quantity, original_price_minor, price_minor, accession_number)
    SELECT b.id, 0, t.id, t.test_code, t.test_name, t.lab_modality, 'RADIOLOGY', 1, t.price_minor, t.price_minor,
      'BN' || b.id || 'A'
    FROM lab_bills b JOIN lab_tests t ON t.id = ${first.t} + (b.id % ${TESTS})`);
  await exec(`INSERT INTO lab_bill_tests (bill_id, position, lab_test_id, test_code, test_name, lab_modality, department,
      quantity, original_price_minor, price_minor, accession_number)
    SELECT b.id, 1, t.id, t.test_code, t.test_name, t.lab_modality, 'RADIOLOGY', 1, t.price_minor, t.price_minor,
      'BN' || b.id || 'B'
    FROM lab_bills b JOIN lab_tests t ON t.id = ${first.t} + ((b.id + 7) % ${TESTS}) WHERE b.id % 2 = 0`);
  // The next 4 weeks: about half of each slot's seats taken, on the last bills' first lines.
  const midnight = istMidnight(new Date()).getTime();
  const booked = Math.min(bills, 28 * SLOTS.length * 20);
  await exec(`UPDATE lab_bill_tests lt SET appointment_name = s.name,
      start_time_of_appointment = s.start, end_time_of_appointment = s.start + interval '4 hours'
    FROM (SELECT id, row_number() OVER (ORDER BY id DESC) - 1 AS k FROM lab_bills ORDER BY id DESC LIMIT ${booked}) b,
      LATERAL (SELECT (ARRAY['${SLOTS.join("','")}'])[1 + b.k % ${SLOTS.length}] AS name,
        to_timestamp(${midnight / 1000} + (b.k / ${SLOTS.length * 20}) * 86400 + 9 * 3600) AS start) s
    WHERE lt.bill_id = b.id AND lt.position = 0`);
  await exec('ANALYZE');
  log(
    `seeded ${bills.toLocaleString('en')} bills, ${patients.toLocaleString('en')} patients in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  const { token } = await createSession(db, { userId: user!.id, deviceId: null, now: new Date() });
  return { token, first, patients };
}

async function send(app: FastifyInstance, cookie: string, url: string, body: unknown) {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const response = await app.inject({
    method: body === null ? 'GET' : 'POST',
    url,
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
      ...(body === null ? {} : { 'content-type': 'application/json' }),
      ...BENCH_DEVICE_HEADERS,
    },
    ...(body === null ? {} : { payload: JSON.stringify(body) }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.statusCode !== 200)
    throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const handle = await openThrowawayDatabase({ name: `radflow_bench_lab_bills_${bills}`, postgresUrl });
const blobsDir = await mkdtemp(join(tmpdir(), 'radflow-bench-lab-'));
const { token, first, patients } = await seed(handle);
const app = await buildApp({
  db: handle.db,
  blobs: await new FsBlobStore(blobsDir).init(),
  logger: { level: 'error', stream: process.stderr },
  maxBusyMs: 0,
});
const results: Record<string, unknown>[] = [];
try {
  await app.ready();
  const midnight = istMidnight(new Date()).getTime();
  const day = (ms: number) => new Date(ms + 330 * 60_000).toISOString().slice(0, 10);
  const scenarios: {
    key: string;
    label: string;
    target: number;
    url: string;
    body: (i: number) => unknown;
  }[] = [
    {
      // The floor every call stands on: session, routing, one preferences query, serialisation.
      key: 'baseline',
      label: 'baseline: GET /api/lab/get-preferences',
      target: 30,
      url: '/api/lab/get-preferences',
      body: () => null,
    },
    {
      key: 'billSave',
      label: 'bill save: 2 tests, 10 % discount, advance',
      target: 50,
      url: '/api/lab/bill',
      body: (i) => ({
        patientId: first.p + ((i * 7919) % patients),
        referringDoctorId: first.d + (i % DOCTORS),
        labBillTests: [
          { labTestId: first.t + (i % TESTS), quantity: 1 },
          { labTestId: first.t + ((i + 3) % TESTS), quantity: 1 },
        ],
        discountPercentage: 10,
        advancePaid: 100,
        paymentMethod: 'CASH',
      }),
    },
    {
      key: 'listActive',
      label: 'billing list: Active tab, pages 1-10',
      target: 50,
      url: '/api/lab/bill/search',
      body: (i) => ({ page: i % 10, size: 20 }),
    },
    {
      key: 'listAll',
      label: 'billing list: All tab, first page',
      target: 50,
      url: '/api/lab/bill/search',
      body: () => ({ labBillingStatuses: ['SCHEDULED', 'OPEN', 'CANCELLED', 'COMPLETED'] }),
    },
    {
      key: 'listRange',
      label: 'billing list: a 7-day bill-date range',
      target: 50,
      url: '/api/lab/bill/search',
      body: (i) => {
        const from = Date.now() - ((i * 37) % 700) * DAY_MS;
        return { startTime: day(from), endTime: day(from + 6 * DAY_MS) };
      },
    },
    {
      // The list's filters keep bills with one such test (an EXISTS on each bill's lines, newest first).
      key: 'listModality',
      label: 'billing list: modality CT (4 in 10 bills), first page',
      target: 50,
      url: '/api/lab/bill/search',
      body: () => ({ testModality: 'CT' }),
    },
    {
      // The worst case: nothing matches, so every bill of the tab is looked at.
      key: 'listModalityNone',
      label: 'billing list: modality MG (no bill has one), first page',
      target: 50,
      url: '/api/lab/bill/search',
      body: () => ({ testModality: 'MG' }),
    },
    {
      key: 'listSignedOff',
      label: 'billing list: report status SIGNED_OFF (no test linked), first page',
      target: 50,
      url: '/api/lab/bill/search',
      body: () => ({ labReportStatuses: ['SIGNED_OFF'] }),
    },
    {
      key: 'slotsWeek',
      label: 'slot availability: a week',
      target: 30,
      url: '/api/lab/get-all-slot',
      body: (i) => {
        const from = midnight + (i % 21) * DAY_MS;
        return {
          startTime: new Date(from).toISOString(),
          endTime: new Date(from + 7 * DAY_MS).toISOString(),
        };
      },
    },
  ];
  for (const s of scenarios) {
    for (let i = 0; i < warmup; i++) await send(app, token, s.url, s.body(samples + i));
    const times: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < samples; i++) {
      const r = await send(app, token, s.url, s.body(i));
      times.push(r.ms);
      cpus.push(r.cpuMs);
    }
    // CPU time of this process per call (PGlite runs in it): what the call costs, whatever the load.
    const cpu = summary(cpus);
    const row = {
      key: s.key,
      label: s.label,
      targetP95Ms: s.target,
      ...summary(times),
      cpuP50Ms: cpu.p50Ms,
      cpuP95Ms: cpu.p95Ms,
    };
    log(`  ${row.label}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms, CPU p50 ${row.cpuP50Ms} ms`);
    results.push({ ...row, meetsTarget: row.p95Ms <= s.target });
  }
} finally {
  await app.close();
  await handle.close();
  await rm(blobsDir, { recursive: true, force: true });
}
const report = {
  script: 'bench/lab-bills.ts',
  date: new Date().toISOString(),
  database: postgresUrl ? 'postgres' : 'pglite',
  bills,
  machine: { cores: availableParallelism(), loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) },
  samples,
  warmup,
  timed: 'server time: app.inject in process (no network)',
  results,
};
if (outFile) await writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
if (asJson) out(JSON.stringify(report, null, 2));
else {
  out(`| database | bills | call | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms | target p95 | met |`);
  out('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results as {
    label: string;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
    cpuP50Ms: number;
    cpuP95Ms: number;
    targetP95Ms: number;
    meetsTarget: boolean;
  }[]) {
    out(
      `| ${report.database} | ${bills.toLocaleString('en')} | ${r.label} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${r.cpuP50Ms} | ${r.cpuP95Ms} | ${r.targetP95Ms} | ${r.meetsTarget ? 'yes' : 'no'} |`,
    );
  }
  out(`load average at the end: ${report.machine.loadAverage.join(' ')}`);
}
