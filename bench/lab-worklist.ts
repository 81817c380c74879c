/**
 * The Modality Worklist C-FIND (issue 25 §7: "the worklist C-FIND for a day of 500 scheduled
 * procedures ≤ 100 ms"): a center's lab with a day of 500 scheduled procedures (half with an
 * appointment, half by their bill's date) among background days (`--days`, 500 lines a day, and a
 * second center's lab as busy), then the day asked for the whole list of return keys. On PGlite
 * 60 days and 5,000 patients a lab by default; with DATABASE_URL on PostgreSQL (a database of the
 * run's own, dropped after) 2,000 days and 500,000 patients a lab: 1,000,000 patients and
 * 2,000,000 bills (issue 25 §7). Timed:
 *   - findscu -W -q (DCMTK, one process per query: the spawn is in the figure; the answers counted
 *     in a run of its own, which also fails the bench on a refused query),
 *   - one query on an open association, as a scanner that keeps its association asks: findscu
 *     --repeat 11 less findscu once, over 10 (the spawn and association cancel out),
 *   - our own DIMSE client (dcmjs-dimse in this process: the association and the 500 responses),
 *   - the query alone (findScheduledProcedures: the database and the answer data sets),
 *   - Orthanc's worklist plugin (libModalityWorklists, 500 .wl files) with the same findscu query,
 *     our AE a known modality (Orthanc refuses a C-FIND from an unknown one), when it is installed
 *     (/usr/share/orthanc/plugins/). (Our dcmjs-dimse client against Orthanc
 *     never saw the association close: not measured.)
 * Usage: [DATABASE_URL=postgres://…] npx tsx bench/lab-worklist.ts [--days N] [--patients N]
 *        [--samples 15] [--json]
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as DcmjsDimseModule from 'dcmjs-dimse';
import { sql } from 'drizzle-orm';
import { runTool, startOrthanc } from '@radflow/dicom/test-support';
import { buildApp } from '../apps/server/src/app.js';
import type { Db } from '../apps/server/src/db/client.js';
import { centers, groups } from '../apps/server/src/db/schema.js';
import { startDicomServices } from '../apps/server/src/modules/archive/dicom-services.js';
import { findScheduledProcedures } from '../apps/server/src/modules/lab-worklist/modality-worklist.js';
import { FsBlobStore } from '../apps/server/src/modules/storage/blob-store.js';
import { openThrowawayDatabase } from './lib/throwaway-database.js';

const dimse = createRequire(import.meta.url)('dcmjs-dimse') as typeof DcmjsDimseModule;
dimse.log.setLevel('silent');

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const postgresUrl = process.env.DATABASE_URL ?? null;
const DATABASE = postgresUrl ? 'PostgreSQL' : 'PGlite';
const DAYS = option('--days', postgresUrl ? 2000 : 60);
/** Patients of each of the two labs. */
const PATIENTS = option('--patients', postgresUrl ? 500_000 : 5000);
const SAMPLES = option('--samples', 15);
const PER_DAY = 500;
const AET = 'BENCHCT';
// 2026-03-10 in +05:30 (the group's default display zone) starts at 2026-03-09T18:30Z.
const DAY = '20260310';
const DAY_START_UTC = Date.parse('2026-03-09T18:30:00Z');
const out = (line: string) => process.stdout.write(`${line}\n`);
/** Progress: on stderr, so that --json prints the figures alone. */
const log = (line: string) => process.stderr.write(`${line}\n`);

const KEYS = [
  'PatientName',
  'PatientID',
  'PatientBirthDate',
  'PatientSex',
  'AccessionNumber',
  'ReferringPhysicianName',
  'RequestedProcedureDescription',
  'RequestedProcedureID',
  'StudyInstanceUID',
  'ScheduledProcedureStepSequence[0].Modality',
  'ScheduledProcedureStepSequence[0].ScheduledStationAETitle',
  `ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartDate=${DAY}`,
  'ScheduledProcedureStepSequence[0].ScheduledProcedureStepStartTime',
  'ScheduledProcedureStepSequence[0].ScheduledProcedureStepDescription',
  'ScheduledProcedureStepSequence[0].ScheduledProcedureStepID',
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? NaN;

/** `days` days of 500 lines for each of two center labs, day 0 the one asked; one bill per line. */
async function seed(db: Db, groupId: number, centerIds: number[]) {
  for (const centerId of centerIds) {
    const owner = sql`${groupId}, 'CENTER', ${centerId}`;
    await db.execute(sql`insert into lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name,
      gender, designation, date_birth, created_by)
      select ${owner}, 'UH' || ${centerId} || '-' || g, (array['Ravi','Sita','Anil','Priya','Arjun','Meera'])[1 + g % 6]
        || ' ' || (array['Kumar','Sharma','Devi','Iyer','Reddy','Singh','Das'])[1 + g % 7] || ' ' || g,
        (array['M','F','O'])[1 + g % 3], 'MR', date '1950-01-01' + (g % 20000), 'bench'
      from generate_series(1, ${PATIENTS}) g`);
    await db.execute(sql`insert into lab_referring_doctors (group_id, lab_scope, lab_owner_id, name, created_by)
      select ${owner}, 'Dr Referrer ' || g, 'bench' from generate_series(1, 20) g`);
    await db.execute(sql`insert into lab_tests (group_id, lab_scope, lab_owner_id, test_code, test_name,
      test_type, lab_modality, price_minor, created_by)
      select ${owner}, 'T' || g, (array['CT Brain','MRI Knee','X-Ray Chest PA','USG Abdomen','Mammography'])[1 + g % 5]
        || ' ' || g, 'NORMAL', (array['CT','MR','DX','US','MG'])[1 + g % 5], 100000, 'bench'
      from generate_series(1, 10) g`);
    // Line n: day n / 500 before the asked day (0 is the day), minute of the day spread over 08:00–20:00.
    const lines = DAYS * PER_DAY;
    await db.execute(sql`insert into lab_bills (group_id, lab_scope, lab_owner_id, invoice_number, status,
      bill_date, initial_bill_date, patient_id, referring_doctor_id, total_minor, final_minor, payment_method, created_by)
      select ${owner}, 'INV' || ${centerId} || '-' || n,
        case when n % 50 = 0 then 'CANCELLED' when n % 2 = 0 then 'SCHEDULED' else 'OPEN' end,
        to_timestamp(${DAY_START_UTC / 1000}) - ((n / ${PER_DAY}) * interval '1 day')
          + interval '8 hours' + ((n % ${PER_DAY}) * interval '86 seconds')
          - case when n % 2 = 0 then interval '2 days' else interval '0' end,
        to_timestamp(${DAY_START_UTC / 1000}), (select min(id) from lab_patients where lab_owner_id = ${centerId}) + n % ${PATIENTS},
        (select min(id) from lab_referring_doctors where lab_owner_id = ${centerId}) + n % 20,
        100000, 100000, 'UPI', 'bench'
      from generate_series(0, ${lines - 1}) n`);
    // Even lines have an appointment on their day (their bill was made two days before).
    await db.execute(sql`insert into lab_bill_tests (bill_id, position, lab_test_id, test_code, test_name,
      lab_modality, department, original_price_minor, price_minor, appointment_name,
      start_time_of_appointment, end_time_of_appointment, accession_number)
      select b.id, 0, t.id, t.test_code, t.test_name, t.lab_modality, 'RADIOLOGY', 100000, 100000,
        case when b.status = 'SCHEDULED' then t.lab_modality || ' slot' end,
        case when b.status = 'SCHEDULED' then b.bill_date + interval '2 days' end,
        case when b.status = 'SCHEDULED' then b.bill_date + interval '2 days 20 minutes' end,
        'RF' || lpad(b.id::text, 8, '0')
      from lab_bills b
      join lab_tests t on t.lab_owner_id = b.lab_owner_id and t.test_code = 'T' || (1 + b.id % 10)
      where b.lab_owner_id = ${centerId}`);
  }
  await db.execute(postgresUrl ? sql`vacuum analyze` : sql`analyze`);
}

/** One Modality Worklist C-FIND by our own dcmjs-dimse client; resolves with the pending responses. */
function ownFind(port: number, calledAet = 'RADFLOW'): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = new dimse.Client();
    const request = dimse.requests.CFindRequest.createWorklistFindRequest({
      PatientName: '',
      PatientID: '',
      PatientBirthDate: '',
      PatientSex: '',
      AccessionNumber: '',
      ReferringPhysicianName: '',
      RequestedProcedureDescription: '',
      RequestedProcedureID: '',
      StudyInstanceUID: '',
      ScheduledProcedureStepSequence: [
        {
          Modality: '',
          ScheduledStationAETitle: '',
          ScheduledProcedureStepStartDate: DAY,
          ScheduledProcedureStepStartTime: '',
          ScheduledProcedureStepDescription: '',
          ScheduledProcedureStepID: '',
        },
      ],
    });
    let pending = 0;
    let failed: string | null = null;
    request.on('response', (response) => {
      const status = response.getStatus();
      if (status === 0xff00 || status === 0xff01) pending++;
      else if (status !== 0) failed = `status 0x${status.toString(16)}`;
    });
    client.on('networkError', (e: Error) => reject(e));
    client.on('associationRejected', () => reject(new Error('association rejected')));
    client.on('closed', () => (failed ? reject(new Error(failed)) : resolve(pending)));
    client.addRequest(request);
    client.send('127.0.0.1', port, AET, calledAet);
  });
}

/**
 * One findscu -W query. Timed runs are quiet (`-q`): otherwise findscu logs every response's data
 * set at INFO, ~100 unbuffered writes each (50,000 system calls for a day of 490), and the figure
 * timed findscu's logging. `count`: not quiet, and the answer is the number of pending responses
 * findscu logged (a failed query throws: findscu exits 0 after "Find Failed").
 */
async function findscu(
  port: number,
  calledAet: string,
  extra: string[] = [],
  { count = false, repeat = 1 } = {},
): Promise<number> {
  const run = await runTool('findscu', [
    '-W',
    ...(count ? [] : ['-q']),
    // findscu sends the query `repeat` times on one association (DcmFindSCU::performQuery).
    ...(repeat > 1 ? ['--repeat', String(repeat)] : []),
    ...[...KEYS, ...extra].flatMap((k) => ['-k', k]),
    '-aet',
    AET,
    '-aec',
    calledAet,
    '127.0.0.1',
    String(port),
  ]);
  if (run.exitCode !== 0 || /Find Failed/.test(run.stderr)) {
    throw new Error(`findscu → ${calledAet}: ${run.stderr.slice(0, 500)}`);
  }
  return count ? (run.stderr.match(/Find Response: \d+ \(Pending\)/g) ?? []).length : 0;
}

/**
 * One query's time on an open association, as a scanner that keeps its association asks: findscu
 * sending the query REPEAT times less findscu sending it once, over REPEAT - 1, paired run by run
 * (the spawn, the association and its release are in both and cancel out).
 */
const REPEAT = 11;
async function perQueryOnOpenAssociation(samples: number, run: (repeat: number) => Promise<unknown>) {
  await run(1);
  await run(REPEAT);
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const once = performance.now();
    await run(1);
    const many = performance.now();
    await run(REPEAT);
    const end = performance.now();
    ms.push((end - many - (many - once)) / (REPEAT - 1));
  }
  return ms;
}

async function time<T>(samples: number, fn: () => Promise<T>): Promise<{ ms: number[]; last: T }> {
  await fn();
  await fn();
  const ms: number[] = [];
  let last!: T;
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    last = await fn();
    ms.push(performance.now() - start);
  }
  return { ms, last };
}

/** 500 worklist files like the day's procedures, for Orthanc's plugin (dump2dcm from text). */
async function writeOrthancWorklists(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const jobs: Promise<unknown>[] = [];
  for (let i = 0; i < PER_DAY; i++) {
    const dump = join(dir, `${i}.txt`);
    const text = [
      '(0008,0005) CS [ISO_IR 192]',
      `(0008,0050) SH [RF${String(i).padStart(8, '0')}]`,
      '(0008,0090) PN [Dr Referrer]',
      `(0010,0010) PN [Ravi Kumar ${i}]`,
      `(0010,0020) LO [UH-${i}]`,
      '(0010,0030) DA [19800214]',
      '(0010,0040) CS [M]',
      `(0020,000d) UI [2.25.${1000 + i}]`,
      '(0032,1060) LO [CT Brain]',
      `(0040,1001) SH [RF${String(i).padStart(8, '0')}]`,
      '(0040,0100) SQ (Sequence with undefined length)',
      '(fffe,e000) na (Item with undefined length)',
      '(0008,0060) CS [CT]',
      `(0040,0001) AE [${AET}]`,
      `(0040,0002) DA [${DAY}]`,
      `(0040,0003) TM [${String(8 + Math.floor(i / 42)).padStart(2, '0')}0000]`,
      '(0040,0007) LO [CT Brain]',
      `(0040,0009) SH [RF${String(i).padStart(8, '0')}]`,
      '(fffe,e00d) na (ItemDelimitationItem)',
      '(fffe,e0dd) na (SequenceDelimitationItem)',
    ].join('\n');
    jobs.push(
      import('node:fs/promises')
        .then((fs) => fs.writeFile(dump, text))
        .then(() => runTool('dump2dcm', ['-g', dump, join(dir, `${i}.wl`)]))
        .then((r) => {
          if (r.exitCode !== 0) throw new Error(`dump2dcm: ${r.stderr}`);
        }),
    );
    if (jobs.length >= 16) await Promise.all(jobs.splice(0));
  }
  await Promise.all(jobs);
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'radflow-bench-mwl-'));
  const handle = await openThrowawayDatabase({
    name: 'radflow_bench_lab_worklist',
    postgresUrl,
    dataDir: join(dir, 'db'),
  });
  const rows: Array<{ path: string; median: number; p95: number; matches: number | string }> = [];
  try {
    const [group] = await handle.db.insert(groups).values({ name: 'Bench group' }).returning();
    const made = await handle.db
      .insert(centers)
      .values([
        { groupId: group!.id, name: 'Bench A', email: 'a@bench.local', aeTitles: [AET] },
        { groupId: group!.id, name: 'Bench B', email: 'b@bench.local', aeTitles: ['BENCHB'] },
      ])
      .returning();
    const seedStart = performance.now();
    await seed(
      handle.db,
      group!.id,
      made.map((c) => c.id),
    );
    log(
      `seeded ${2 * DAYS * PER_DAY} bill lines (${DAYS} days × ${PER_DAY} × 2 centers) in ${Math.round(performance.now() - seedStart)} ms`,
    );

    const app = await buildApp({
      db: handle.db,
      blobs: await new FsBlobStore(join(dir, 'blobs')).init(),
      logger: { level: 'error', stream: process.stderr },
      maxBusyMs: 0,
    });
    await app.ready();
    const dicom = await startDicomServices(app.ctx, {
      DICOM_PORT: 0,
      DICOM_AET: 'RADFLOW',
      HOST: '127.0.0.1',
    });
    try {
      const query = await time(SAMPLES, async () => {
        const found = await findScheduledProcedures(handle.db, {
          centerId: made[0]!.id,
          callingAet: AET,
          identifier: {
            '00080050': { vr: 'SH' },
            '00100010': { vr: 'PN' },
            '00100020': { vr: 'LO' },
            '00100030': { vr: 'DA' },
            '00100040': { vr: 'CS' },
            '00080090': { vr: 'PN' },
            '00321060': { vr: 'LO' },
            '00401001': { vr: 'SH' },
            '0020000D': { vr: 'UI' },
            '00400100': {
              vr: 'SQ',
              Value: [
                {
                  '00080060': { vr: 'CS' },
                  '00400001': { vr: 'AE' },
                  '00400002': { vr: 'DA', Value: [DAY] },
                  '00400003': { vr: 'TM' },
                  '00400007': { vr: 'LO' },
                  '00400009': { vr: 'SH' },
                },
              ],
            },
          },
          maxMatches: 1000,
        });
        return found?.length ?? 0;
      });
      rows.push({
        path: 'query alone (findScheduledProcedures)',
        median: median(query.ms),
        p95: p95(query.ms),
        matches: query.last,
      });
      const own = await time(SAMPLES, () => ownFind(dicom.port));
      rows.push({
        path: 'our DIMSE client → our SCP',
        median: median(own.ms),
        p95: p95(own.ms),
        matches: own.last,
      });
      const answered = await findscu(dicom.port, 'RADFLOW', [], { count: true });
      const dcmtk = await time(SAMPLES, () => findscu(dicom.port, 'RADFLOW'));
      rows.push({
        path: 'findscu -W -q → our SCP (spawn included)',
        median: median(dcmtk.ms),
        p95: p95(dcmtk.ms),
        matches: answered,
      });
      const open = await perQueryOnOpenAssociation(SAMPLES, (repeat) =>
        findscu(dicom.port, 'RADFLOW', [], { repeat }),
      );
      rows.push({
        path: `findscu -W -q → our SCP, one query on an open association (--repeat ${REPEAT} less 1)`,
        median: median(open),
        p95: p95(open),
        matches: answered,
      });
      // The fixed part: spawn, association, the query finding nothing, release.
      const none = await time(SAMPLES, () => findscu(dicom.port, 'RADFLOW', ['AccessionNumber=NONE']));
      rows.push({
        path: 'findscu -W -q → our SCP, no match (spawn + association)',
        median: median(none.ms),
        p95: p95(none.ms),
        matches: 0,
      });
    } finally {
      await dicom.close();
      await app.close();
    }

    const plugin = '/usr/share/orthanc/plugins/libModalityWorklists.so';
    if (existsSync(plugin)) {
      const worklists = join(dir, 'orthanc-worklists');
      await writeOrthancWorklists(worklists);
      const orthanc = await startOrthanc({
        aeTitle: 'ORTHANC',
        // Orthanc refuses a C-FIND from an AE it does not know (the query then "fails" in ~80 ms).
        modalities: { bench: [AET, '127.0.0.1', 104] },
        config: { Plugins: [plugin], Worklists: { Enable: true, Database: worklists } },
      });
      try {
        const answered = await findscu(orthanc.port, 'ORTHANC', [], { count: true });
        const dcmtk = await time(SAMPLES, () => findscu(orthanc.port, 'ORTHANC'));
        rows.push({
          path: 'findscu -W -q → Orthanc worklist plugin (500 files)',
          median: median(dcmtk.ms),
          p95: p95(dcmtk.ms),
          matches: answered,
        });
        const open = await perQueryOnOpenAssociation(SAMPLES, (repeat) =>
          findscu(orthanc.port, 'ORTHANC', [], { repeat }),
        );
        rows.push({
          path: `findscu -W -q → Orthanc worklist plugin, one query on an open association (--repeat ${REPEAT} less 1)`,
          median: median(open),
          p95: p95(open),
          matches: answered,
        });
      } finally {
        await orthanc.stop();
      }
    } else {
      log(`Orthanc's worklist plugin is not installed (${plugin}): no side-by-side figure`);
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
  if (args.includes('--json')) {
    out(
      JSON.stringify(
        { database: DATABASE, days: DAYS, perDay: PER_DAY, patients: 2 * PATIENTS, samples: SAMPLES, rows },
        null,
        2,
      ),
    );
    return;
  }
  out(
    `\nModality Worklist C-FIND of one day (${PER_DAY} scheduled procedures), ${DATABASE}, ${SAMPLES} samples, target ≤ 100 ms\n`,
  );
  out('| path | median ms | p95 ms | matches |');
  out('|---|---|---|---|');
  for (const r of rows) out(`| ${r.path} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.matches} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
