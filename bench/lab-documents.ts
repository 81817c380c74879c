/**
 * The lab's documents and summary at size (issue 25 §7 Figures), in process:
 *   - GET /api/lab/bill/print/{id}: the bill PDF (letterhead with GST, two lines, two payments), warm,
 *     one after another — median ≤ 150 ms; also a Devanagari patient's bill;
 *   - POST /api/lab/summary/search: pages of 20 over 1, 7 and 30 days, the three sorts, as the
 *     supervisor (all receptionists, or one) and as a receptionist — p95 reported (the billing
 *     list's bar is ≤ 50 ms).
 * The lab is seeded with SQL (generate_series) over a year, one line and (mostly) one payment a bill:
 * on PGlite 100,000 patients and 200,000 bills by default, with DATABASE_URL on PostgreSQL (a
 * database of the run's own, dropped after) 1,000,000 and 2,000,000 (issue 25 §7).
 * Timed with app.inject (server time, no socket). Prints a table; --json prints the figures.
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/lab-documents.ts [--patients N] [--bills N]
 *        [--samples 100] [--warmup 10] [--json] [--keep (PostgreSQL: leave the database)]
 */
import { loadavg } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { centers, groups, users } from '../apps/server/src/db/schema.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { savePreferenceSection } from '../apps/server/src/modules/preferences/preferences.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { insertBill } from '../apps/server/test/lab-docs-data.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';
import { summary } from './lib/stats.js';
import { openThrowawayDatabase } from './lib/throwaway-database.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const postgresUrl = process.env.DATABASE_URL ?? null;
const DATABASE = postgresUrl ? 'PostgreSQL' : 'PGlite';
const PATIENTS = option('--patients', postgresUrl ? 1_000_000 : 100_000);
const BILLS = option('--bills', postgresUrl ? 2_000_000 : 200_000);
const SAMPLES = option('--samples', 100);
const WARMUP = option('--warmup', 10);
const asJson = args.includes('--json');
const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const DAY_MS = 24 * 60 * 60 * 1000;
const TARGETS = { billPdfMedianMs: 150, summaryP95Ms: 50 };
const RECEPTIONISTS = 5;

async function timed(
  app: FastifyInstance,
  cookie: string,
  method: 'GET' | 'POST',
  url: string,
  body?: object,
) {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method,
    url,
    headers: {
      cookie: `${SESSION_COOKIE_NAME}=${cookie}`,
      ...BENCH_DEVICE_HEADERS,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { ms, res };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'radflow-bench-lab-docs-'));
  const handle = await openThrowawayDatabase({
    name: `radflow_bench_lab_documents_${BILLS}`,
    postgresUrl,
    dataDir: join(work, 'db'),
    keep: args.includes('--keep'),
  });
  try {
    const db = handle.db;
    const [group] = await db.insert(groups).values({ name: 'Lab bench group' }).returning();
    const [center] = await db
      .insert(centers)
      .values({
        groupId: group!.id,
        name: 'Sunrise Diagnostics',
        email: 'lab-bench@bench.local',
        aeTitles: [],
      })
      .returning();
    const user = async (email: string, roles: string[], centerId: number | null, identifier: string) =>
      (
        await db
          .insert(users)
          .values({ email, passwordHash: 'x', roles, groupId: group!.id, centerId, identifier })
          .returning()
      )[0]!;
    const supervisor = await user(
      'supervisor@bench.local',
      ['ROLE_LABS_SUPERVISOR'],
      center!.id,
      'Sumi Supervisor',
    );
    const desks = [];
    for (let i = 0; i < RECEPTIONISTS; i++)
      desks.push(await user(`desk${i}@bench.local`, ['ROLE_LABS_RECEPTIONIST'], center!.id, `Desk ${i}`));
    const groupAccount = await user('group@bench.local', ['ROLE_GROUP'], null, 'Group');
    await savePreferenceSection(db, {
      ownerId: groupAccount.id,
      section: 'BILLING_DETAILS',
      value: {
        accName: 'Sunrise Diagnostics LLP',
        bankName: 'State Bank of India',
        bankAccount: '123456789012',
        bankIFSC: 'SBIN0001234',
        bankBranch: 'Park Street',
        pan: 'ABCDE1234F',
        gstNumber: '19ABCDE1234F1Z5',
        gstPercentage: 18,
      },
      updatedBy: 'bench',
    });

    // The lab at size, by SQL: patients, 40 tests, bills over the last 365 days, a line and a payment each.
    const seedStarted = Date.now();
    const g = group!.id;
    const c = center!.id;
    const now = Date.now();
    const first = new Date(now - 365 * DAY_MS);
    const emails = desks.map((d) => d.email);
    await db.execute(sql`insert into lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name,
      mobile_number, gender, designation, age_string, age_years, created_by)
      select ${g}, 'CENTER', ${c}, 'UH' || i, 'Patient ' || i, '98' || lpad(i::text, 8, '0'),
        (array['M','F','O'])[1 + i % 3], 'MR', (20 + i % 60) || ' Y', 20 + i % 60, ${emails[0]}
      from generate_series(1, ${PATIENTS}) i`);
    await db.execute(sql`insert into lab_tests (group_id, lab_scope, lab_owner_id, test_code, test_name,
      test_type, lab_modality, price_minor, created_by)
      select ${g}, 'CENTER', ${c}, 'T' || i, 'Test ' || i, 'NORMAL', (array['CT','MR','DX','US'])[1 + i % 4],
        50000 + i * 10000, ${emails[0]} from generate_series(1, 40) i`);
    await db.execute(sql`insert into lab_bills (group_id, lab_scope, lab_owner_id, invoice_number, status,
      bill_date, initial_bill_date, patient_id, total_minor, final_minor, advance_paid_minor, due_minor,
      payment_method, created_by, first_payment_recorded_by, created_at)
      select ${g}, 'CENTER', ${c}, 'INV' || i,
        case when i % 50 = 0 then 'CANCELLED' when i % 20 = 0 then 'SCHEDULED' else 'OPEN' end,
        d, d, p.first + (i % ${PATIENTS}), price, price,
        case when i % 5 = 0 then 0 else price end, case when i % 5 = 0 then price else 0 end,
        'UPI', creator, case when i % 5 = 0 then null else creator end, d
      from generate_series(1, ${BILLS}) i,
        lateral (select ${first.toISOString()}::timestamptz + (i::float8 / ${BILLS}) * interval '365 days' as d,
                 50000 + (i % 40) * 10000 as price,
                 (${sql.raw(`array[${emails.map((e) => `'${e}'`).join(',')}]`)})[1 + i % ${RECEPTIONISTS}] as creator) x,
        (select min(id) as first from lab_patients where lab_owner_id = ${c}) p`);
    await db.execute(sql`insert into lab_bill_tests (bill_id, position, lab_test_id, test_code, test_name,
      lab_modality, department, quantity, original_price_minor, price_minor, accession_number)
      select b.id, 0, t.id, t.test_code, t.test_name, t.lab_modality, 'RADIOLOGY', 1, b.total_minor,
        b.total_minor, 'ACC' || b.id
      from lab_bills b join lab_tests t on t.test_code = 'T' || (1 + b.id % 40) and t.lab_owner_id = ${c}
      where b.lab_owner_id = ${c}`);
    await db.execute(sql`insert into lab_transactions (bill_id, payment_method, transaction_id, amount_minor,
      recorded_by, recorded_at)
      select b.id, (array['UPI','CASH','CARD'])[1 + b.id % 3], 'TX' || b.id, b.advance_paid_minor,
        b.created_by, b.bill_date from lab_bills b where b.lab_owner_id = ${c} and b.advance_paid_minor > 0`);
    await db.execute(postgresUrl ? sql`vacuum analyze` : sql`analyze`);
    const seedMs = Date.now() - seedStarted;
    log(`seeded ${PATIENTS} patients and ${BILLS} bills in ${(seedMs / 1000).toFixed(1)} s`);

    const latin = await insertBill(db, {
      lab: { groupId: g, centerId: c },
      createdBy: emails[0]!,
      patient: { name: 'Asha Rao' },
      doctor: 'Dr Meera Iyer',
      discountBasisPoints: 1000,
      lines: [
        { testCode: 'CTX1', testName: 'CT Head Plain', labModality: 'CT', priceMinor: 2500_00 },
        { testCode: 'DXX7', testName: 'Chest PA View', labModality: 'DX', quantity: 2, priceMinor: 400_00 },
      ],
      payments: [
        { method: 'UPI', amountMinor: 2000_00, transactionId: 'UPI-77812' },
        { method: 'CASH', amountMinor: 500_00 },
      ],
    });
    const devanagari = await insertBill(db, {
      lab: { groupId: g, centerId: c },
      createdBy: emails[0]!,
      patient: { name: 'प्रिया शर्मा' },
      lines: [{ testCode: 'USX2', testName: 'USG Abdomen', labModality: 'US', priceMinor: 1200_00 }],
      payments: [{ method: 'CASH', amountMinor: 1200_00 }],
    });

    const blobRoot = join(work, 'blobs');
    const app = await buildApp({
      db,
      blobs: await new FsBlobStore(blobRoot).init(),
      logger: { level: 'error', stream: process.stderr },
      maxBusyMs: 0,
    });
    try {
      await app.ready();
      const cookie = async (userId: number) =>
        (await createSession(db, { userId, deviceId: null, now: new Date() })).token;
      const supervisorCookie = await cookie(supervisor.id);
      const deskCookie = await cookie(desks[1]!.id);

      const pdfTimes = async (billId: number) => {
        for (let i = 0; i < WARMUP; i++)
          await timed(app, supervisorCookie, 'GET', `/api/lab/bill/print/${billId}`);
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < SAMPLES; i++) {
          const { ms, res } = await timed(app, supervisorCookie, 'GET', `/api/lab/bill/print/${billId}`);
          times.push(ms);
          bytes = res.rawPayload.length;
        }
        return { ...summary(times), bytes };
      };
      const billPdf = await pdfTimes(latin.id);
      const billPdfDevanagari = await pdfTimes(devanagari.id);

      const day = (ms: number) => new Date(ms + 5.5 * 3600 * 1000).toISOString().slice(0, 10);
      const sorts = ['DATE_CREATED_AT', 'RECEPTIONIST_NAME', 'PAYMENT_RECORDED_BY'] as const;
      const spans = [1, 7, 30];
      const body = (i: number) => {
        const span = spans[i % spans.length]!;
        const end = now - ((i * 7919) % 300) * DAY_MS;
        return {
          startTime: day(end - (span - 1) * DAY_MS),
          endTime: day(end),
          sortType: sorts[Math.floor(i / spans.length) % sorts.length],
          receptionistName: i % 4 === 0 ? emails[i % RECEPTIONISTS] : '',
          page: i % 3,
          size: 20,
        };
      };
      /** All samples, and the p50/p95 of each sort and span (which kind of call is the slow one). */
      const searchTimes = async (who: string) => {
        const times: number[] = [];
        const byKind = new Map<string, number[]>();
        for (let i = 0; i < WARMUP + SAMPLES; i++) {
          const b = body(i);
          const { ms } = await timed(app, who, 'POST', '/api/lab/summary/search', b);
          if (i < WARMUP) continue;
          times.push(ms);
          const kind = `${b.sortType} ${spans[i % spans.length]}d`;
          byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
        }
        const kinds = Object.fromEntries(
          [...byKind].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, summary(v)]),
        );
        return { ...summary(times), kinds };
      };
      const supervisorSearch = await searchTimes(supervisorCookie);
      const receptionistSearch = await searchTimes(deskCookie);

      const figures = {
        date: new Date().toISOString(),
        database: postgresUrl ? 'postgres' : 'pglite',
        patients: PATIENTS,
        bills: BILLS,
        load: loadavg().map((n) => Math.round(n * 100) / 100),
        seedSeconds: Math.round(seedMs / 100) / 10,
        billPdf,
        billPdfDevanagari,
        supervisorSearch,
        receptionistSearch,
        targets: TARGETS,
      };
      if (asJson) {
        out(JSON.stringify(figures, null, 2));
        return;
      }
      out(
        `Lab documents on ${DATABASE}: ${PATIENTS} patients, ${BILLS} bills; load ${figures.load.join(' ')}`,
      );
      out('');
      out('| figure | n | p50 | p95 | max | target |');
      out('|---|---|---|---|---|---|');
      const line = (name: string, s: ReturnType<typeof summary>, target: string) =>
        out(`| ${name} | ${s.n} | ${s.p50Ms} ms | ${s.p95Ms} ms | ${s.maxMs} ms | ${target} |`);
      line(`bill PDF, warm (${billPdf.bytes} bytes)`, billPdf, `median ≤ ${TARGETS.billPdfMedianMs} ms`);
      line(`bill PDF, Devanagari patient (${billPdfDevanagari.bytes} bytes)`, billPdfDevanagari, '—');
      line('summary search, supervisor', supervisorSearch, `p95 ≤ ${TARGETS.summaryP95Ms} ms`);
      for (const [kind, s] of Object.entries(supervisorSearch.kinds)) line(`… supervisor, ${kind}`, s, '');
      line('summary search, receptionist', receptionistSearch, `p95 ≤ ${TARGETS.summaryP95Ms} ms`);
      for (const [kind, s] of Object.entries(receptionistSearch.kinds))
        line(`… receptionist, ${kind}`, s, '');
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
