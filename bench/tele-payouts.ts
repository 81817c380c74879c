/**
 * The radiologist's payout at size (issue 26 §2, §6): a group with N signed-off studies in one month
 * read by D doctors (study parts on a third, urgent on a tenth, an addendum on a twentieth), default
 * doctor rates, then through HTTP in process (app.inject):
 *   - POST /api/tele-payout/issue for the month: every doctor's statement and its lines;
 *   - the same call again: nothing new (idempotent);
 *   - GET /api/tele-payout/margin for the month;
 *   - GET /api/tele-payout/statements/{id}/pdf: the median of --pdf-samples renders.
 * A fresh database: PGlite in a temporary folder, or PostgreSQL with DATABASE_URL (the script migrates
 * it and adds its own group).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/tele-payouts.ts [--studies 1000000] [--doctors 200]
 *        [--pdf-samples 5] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { SESSION_COOKIE_NAME } from '@radflow/core';
import { buildApp } from '../apps/server/src/app.js';
import { type DbHandle, openPglite, openPostgres } from '../apps/server/src/db/client.js';
import { centers, groups, users } from '../apps/server/src/db/schema.js';
import { createSession } from '../apps/server/src/modules/credentials/sessions.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const studies = option('--studies', 1_000_000);
const doctorCount = option('--doctors', 200);
const pdfSamples = option('--pdf-samples', 5);
const asJson = args.includes('--json');
const log = (line: string) => process.stderr.write(`${line}\n`);
const PERIOD = { periodStart: '2026-03-01', periodEnd: '2026-03-31' };

const work = await mkdtemp(join(tmpdir(), 'radflow-tele-payouts-'));
const url = process.env.DATABASE_URL;
const handle: DbHandle = url ? await openPostgres(url) : await openPglite({ dataDir: join(work, 'db') });
const count = async (q: ReturnType<typeof sql>) =>
  Number(((await handle.db.execute(q)) as unknown as { rows: Array<{ n: string }> }).rows[0]!.n);
try {
  await handle.migrate();
  const db = handle.db;
  const [group] = await db
    .insert(groups)
    .values({ name: `Tele payouts bench ${Date.now()}` })
    .returning();
  const groupId = group!.id;
  const [center] = await db
    .insert(centers)
    .values({ groupId, name: 'Bench center', email: `bench-payout-${groupId}@bench.local`, aeTitles: [] })
    .returning({ id: centers.id });
  const [biller] = await db
    .insert(users)
    .values({
      email: `biller-bench-${groupId}@bench.local`,
      passwordHash: 'x',
      roles: ['ROLE_BILLER'],
      groupId,
      identifier: 'Biller bench',
    })
    .returning({ id: users.id });
  const doctors = await db
    .insert(users)
    .values(
      Array.from({ length: doctorCount }, (_, i) => ({
        email: `doctor-bench-${groupId}-${i}@bench.local`,
        passwordHash: 'x',
        roles: ['ROLE_DOCTOR' as const],
        groupId,
        identifier: `Dr Bench ${i + 1}`,
      })),
    )
    .returning({ id: users.id });
  const firstDoctor = doctors[0]!.id;
  await db.execute(sql`
    insert into tele_prices (group_id, side, doctor_user_id, modality, study_part, charge, amount_minor, effective_from)
    values (${groupId}::int, 'DOCTOR', null, 'CT', '', 'READ', 20000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', null, 'MR', '', 'READ', 40000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', null, 'CR', '', 'READ', 8000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', null, 'CT', 'HEAD', 'READ', 30000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', null, 'CT', '', 'URGENT', 10000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', null, 'CT', '', 'ADDENDUM', 5000, '2026-01-01'),
           (${groupId}::int, 'DOCTOR', ${firstDoctor}::int, 'CT', '', 'READ', 25000, '2026-03-10')`);
  const seedStart = Date.now();
  const chunk = 100_000;
  for (let from = 0; from < studies; from += chunk) {
    const to = Math.min(studies, from + chunk);
    await db.execute(sql`
      with s as (
        insert into studies (group_id, center_id, study_instance_uid, patient_name, modalities, series_count, instance_count)
        select ${groupId}::int, ${center!.id}::int, '2.25.' || ${groupId}::int || '.' || i, 'BENCH^' || i,
          array[(array['CT','CT','MR','CR'])[1 + i % 4]], 1, 1
        from generate_series(${from}::int, ${to - 1}::int) i
        returning id, study_instance_uid
      ),
      rs as (
        insert into report_statuses (study_id, group_id, center_id, status, signed_off_at, first_signed_off_at, study_parts, urgent)
        select s.id, ${groupId}::int, ${center!.id}::int, 'SIGNED_OFF',
          timestamptz '2026-03-01 00:00:00+05:30' + ((i * 2654435761::bigint) % (30 * 86400)) * interval '1 second',
          timestamptz '2026-03-01 00:00:00+05:30' + ((i * 2654435761::bigint) % (30 * 86400)) * interval '1 second',
          case when i % 3 = 0 then array['HEAD', 'CHEST'] when i % 3 = 1 then array['HEAD'] else '{}'::text[] end,
          i % 10 = 0
        from s join lateral (select split_part(s.study_instance_uid, '.', 4)::bigint as i) n on true
        returning id, signed_off_at, study_id
      )
      insert into reports (report_status_id, name, content_html, doctor_user_id, typed_by_user_id, is_addendum, signed_off_at)
      select rs.id, 'R', '<p>x</p>', d.doctor, d.doctor, a.is_addendum,
        rs.signed_off_at + case when a.is_addendum then interval '1 hour' else interval '0' end
      from rs
      join lateral (select ${firstDoctor}::int + (rs.study_id % ${doctorCount}::int) as doctor) d on true
      join lateral (select false as is_addendum union all select true where rs.study_id % 20 = 0) a on true`);
    log(`seeded ${to} studies`);
  }
  await db.execute(sql`analyze`);
  const seedMs = Date.now() - seedStart;

  const app = await buildApp({
    db,
    blobs: await new FsBlobStore(join(work, 'blobs')).init(),
    logger: false,
    maxBusyMs: 0,
  });
  await app.ready();
  const { token } = await createSession(db, { userId: biller!.id, deviceId: null, now: new Date() });
  const headers = {
    cookie: `${SESSION_COOKIE_NAME}=${token}`,
    'content-type': 'application/json',
    ...BENCH_DEVICE_HEADERS,
  };
  const timed = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const started = process.hrtime.bigint();
    const res = await app.inject({
      method,
      url: path,
      headers,
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return {
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      json: res.json() as Record<string, unknown>,
    };
  };
  const first = await timed('POST', '/api/tele-payout/issue', PERIOD);
  const issued = first.json['issued'] as Array<{ id: number; total: number }>;
  const lines = await count(sql`select count(*)::bigint as n from billing_lines where group_id = ${groupId}`);
  const second = await timed('POST', '/api/tele-payout/issue', PERIOD);
  const linesAfter = await count(
    sql`select count(*)::bigint as n from billing_lines where group_id = ${groupId}`,
  );
  const idempotent = (second.json['issued'] as unknown[]).length === 0 && lines === linesAfter;
  const margin = await timed('GET', '/api/tele-payout/margin?from=2026-03-01&to=2026-03-31');
  const pdfTimes: number[] = [];
  for (let i = 0; i < pdfSamples; i++) {
    const doc = issued[i % issued.length]!;
    const started = process.hrtime.bigint();
    const res = await app.inject({
      method: 'GET',
      url: `/api/tele-payout/statements/${doc.id}/pdf`,
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`pdf: ${res.statusCode}`);
    pdfTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  pdfTimes.sort((a, b) => a - b);
  await app.close();
  const figures = {
    database: url ? 'postgres' : 'pglite',
    studies,
    doctors: doctorCount,
    lines,
    statements: issued.length,
    seedMs,
    issueMs: Math.round(first.ms),
    rerunMs: Math.round(second.ms),
    idempotent,
    marginMs: Math.round(margin.ms),
    pdfMedianMs: Math.round((pdfTimes[Math.floor(pdfTimes.length / 2)] ?? 0) * 10) / 10,
    linesPerStatement: Math.round(lines / Math.max(1, issued.length)),
  };
  if (asJson) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else {
    process.stdout.write(
      '| database | studies | doctors | lines | issue | re-run | idempotent | margin | PDF median (lines) |\n|---|---|---|---|---|---|---|---|---|\n',
    );
    process.stdout.write(
      `| ${figures.database} | ${studies} | ${doctorCount} | ${lines} | ${figures.issueMs} ms | ${figures.rerunMs} ms | ${idempotent} | ${figures.marginMs} ms | ${figures.pdfMedianMs} ms (${figures.linesPerStatement}) |\n`,
    );
  }
  if (!idempotent) process.exitCode = 1;
} finally {
  await handle.close();
  await rm(work, { recursive: true, force: true });
}
