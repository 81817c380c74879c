/**
 * Tele invoicing at size (issue 26 §6 Figures): a group of 100 centers with N signed-off studies in one
 * month (study parts on a third, urgent on a tenth, a default price list and a center price each),
 * then, through HTTP in process (app.inject):
 *   - POST /api/tele-invoices/month: every center's invoice and its lines (target ≤ 30 s for
 *     1,000,000 studies on PostgreSQL);
 *   - the same call again: nothing new, the same documents (idempotent);
 *   - GET /api/tele-invoices/{id}/pdf: the median of --pdf-samples renders (target ≤ 150 ms).
 * A fresh database: PGlite in a temporary folder, or PostgreSQL with DATABASE_URL (an empty database:
 * the script migrates it and adds its own group).
 *
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/tele-invoicing.ts [--studies 1000000]
 *        [--centers 100] [--pdf-samples 20] [--json]
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
import { savePreferenceSection } from '../apps/server/src/modules/preferences/preferences.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { BENCH_DEVICE_HEADERS } from './lib/radflow-server.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const studies = option('--studies', 1_000_000);
const centerCount = option('--centers', 100);
const pdfSamples = option('--pdf-samples', 20);
const asJson = args.includes('--json');
const log = (line: string) => process.stderr.write(`${line}\n`);
const MONTH = '2026-03';

const work = await mkdtemp(join(tmpdir(), 'radflow-tele-invoicing-'));
const url = process.env.DATABASE_URL;
const handle: DbHandle = url ? await openPostgres(url) : await openPglite({ dataDir: join(work, 'db') });
try {
  await handle.migrate();
  const db = handle.db;
  const [group] = await db
    .insert(groups)
    .values({ name: `Tele invoicing bench ${Date.now()}` })
    .returning();
  const groupId = group!.id;
  const made = await db
    .insert(centers)
    .values(
      Array.from({ length: centerCount }, (_, i) => ({
        groupId,
        name: `Bench center ${i + 1}`,
        email: `bench-center-${groupId}-${i + 1}@bench.local`,
        aeTitles: [],
      })),
    )
    .returning({ id: centers.id });
  const [tele] = await db
    .insert(users)
    .values({
      email: `tele-bench-${groupId}@bench.local`,
      passwordHash: 'x',
      roles: ['ROLE_TELE_RADIOLOGY'],
      groupId,
      identifier: 'Tele bench',
    })
    .returning({ id: users.id });
  await savePreferenceSection(db, {
    ownerId: tele!.id,
    section: 'BILLING_DETAILS',
    value: { accName: 'Bench Tele LLP', gstNumber: '29ABCDE1234F1Z5', gstPercentage: 18 },
    updatedBy: 'bench',
  });
  // Prices: the default list (CT, MR, CR base; CT HEAD and CHEST; urgent) and a CT price per center.
  await db.execute(sql`
    insert into tele_prices (group_id, side, center_id, modality, study_part, charge, amount_minor, effective_from)
    values (${groupId}::int, 'CENTER', null, 'CT', '', 'READ', 50000, '2026-01-01'),
           (${groupId}::int, 'CENTER', null, 'MR', '', 'READ', 90000, '2026-01-01'),
           (${groupId}::int, 'CENTER', null, 'CR', '', 'READ', 20000, '2026-01-01'),
           (${groupId}::int, 'CENTER', null, 'CT', 'HEAD', 'READ', 80000, '2026-01-01'),
           (${groupId}::int, 'CENTER', null, 'CT', 'CHEST', 'READ', 70000, '2026-01-01'),
           (${groupId}::int, 'CENTER', null, 'CT', '', 'URGENT', 20000, '2026-01-01')`);
  await db.execute(sql`
    insert into tele_prices (group_id, side, center_id, modality, study_part, charge, amount_minor, effective_from)
    select ${groupId}::int, 'CENTER', c.id, 'CT', '', 'READ', 45000 + (c.id % 7) * 1000, '2026-03-10'
    from centers c where c.group_id = ${groupId}`);
  const seedStart = Date.now();
  const firstCenter = made[0]!.id;
  const chunk = 200_000;
  for (let from = 0; from < studies; from += chunk) {
    const to = Math.min(studies, from + chunk);
    await db.execute(sql`
      with s as (
        insert into studies (group_id, center_id, study_instance_uid, patient_name, modalities, series_count, instance_count)
        select ${groupId}::int, ${firstCenter}::int + (i % ${centerCount}::int), '2.25.' || ${groupId}::int || '.' || i, 'BENCH^' || i,
          array[(array['CT','CT','MR','CR'])[1 + i % 4]], 1, 1
        from generate_series(${from}::int, ${to - 1}::int) i
        returning id, center_id, study_instance_uid
      )
      insert into report_statuses (study_id, group_id, center_id, status, signed_off_at, first_signed_off_at, study_parts, urgent)
      select s.id, ${groupId}::int, s.center_id, 'SIGNED_OFF',
        timestamptz '2026-03-01 00:00:00+05:30' + ((i * 2654435761::bigint) % (30 * 86400)) * interval '1 second',
        timestamptz '2026-03-01 00:00:00+05:30' + ((i * 2654435761::bigint) % (30 * 86400)) * interval '1 second',
        case when i % 3 = 0 then array['HEAD', 'CHEST'] when i % 3 = 1 then array['HEAD'] else '{}'::text[] end,
        i % 10 = 0
      from s join lateral (select split_part(s.study_instance_uid, '.', 4)::bigint as i) n on true`);
    log(`seeded ${to} studies`);
  }
  await db.execute(sql`analyze`);
  const seedMs = Date.now() - seedStart;

  const blobRoot = join(work, 'blobs');
  const app = await buildApp({
    db,
    blobs: await new FsBlobStore(blobRoot).init(),
    logger: false,
    maxBusyMs: 0,
  });
  await app.ready();
  const { token } = await createSession(db, { userId: tele!.id, deviceId: null, now: new Date() });
  const headers = {
    cookie: `${SESSION_COOKIE_NAME}=${token}`,
    'content-type': 'application/json',
    ...BENCH_DEVICE_HEADERS,
  };
  const run = async () => {
    const started = process.hrtime.bigint();
    const res = await app.inject({
      method: 'POST',
      url: '/api/tele-invoices/month',
      headers,
      payload: JSON.stringify({ month: MONTH }),
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200) throw new Error(`month: ${res.statusCode} ${res.body}`);
    return { ms, documents: (res.json() as { documents: Array<{ id: number; total: number }> }).documents };
  };
  const first = await run();
  const lines = Number(
    (
      (await db.execute(
        sql`select count(*)::bigint as n from billing_lines where group_id = ${groupId}`,
      )) as unknown as { rows: Array<{ n: string }> }
    ).rows[0]!.n,
  );
  const second = await run();
  const linesAfter = Number(
    (
      (await db.execute(
        sql`select count(*)::bigint as n from billing_lines where group_id = ${groupId}`,
      )) as unknown as { rows: Array<{ n: string }> }
    ).rows[0]!.n,
  );
  const idempotent =
    JSON.stringify(first.documents) === JSON.stringify(second.documents) && lines === linesAfter;
  const pdfTimes: number[] = [];
  for (let i = 0; i < pdfSamples; i++) {
    const doc = first.documents[i % first.documents.length]!;
    const started = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url: `/api/tele-invoices/${doc.id}/pdf`, headers });
    if (res.statusCode !== 200) throw new Error(`pdf: ${res.statusCode}`);
    pdfTimes.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  pdfTimes.sort((a, b) => a - b);
  const pdfMedian = pdfTimes[Math.floor(pdfTimes.length / 2)] ?? 0;
  await app.close();
  const figures = {
    database: url ? 'postgres' : 'pglite',
    centers: centerCount,
    studies,
    lines,
    documents: first.documents.length,
    seedMs,
    invoiceMonthMs: Math.round(first.ms),
    rerunMs: Math.round(second.ms),
    idempotent,
    pdfMedianMs: Math.round(pdfMedian * 10) / 10,
    targets: { invoiceMonthMs: 30_000, pdfMedianMs: 150 },
  };
  if (asJson) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else {
    process.stdout.write(
      '| database | centers | studies | lines | invoice month | re-run | idempotent | PDF median |\n|---|---|---|---|---|---|---|---|\n',
    );
    process.stdout.write(
      `| ${figures.database} | ${centerCount} | ${studies} | ${lines} | ${figures.invoiceMonthMs} ms | ${figures.rerunMs} ms | ${idempotent} | ${figures.pdfMedianMs} ms |\n`,
    );
  }
  if (!idempotent) process.exitCode = 1;
} finally {
  await handle.close();
  await rm(work, { recursive: true, force: true });
}
