/**
 * What the bill-line link costs the ingest (lab-worklist DECISIONS.md "images link themselves"):
 * the index writer alone on PGlite, lone instances (one association's pace), the instance
 * statement without the `lab_line` CTEs (base) and with them (new), two databases side by side,
 * rounds alternating. Each round: 100 instances of new studies whose accession number is a bill
 * line of the center's lab (each links), then 200 instances of one study (the link's one-time
 * filter is false). Prints the median CPU and wall time per instance of each.
 * Usage: npx tsx bench/lab-worklist-ingest.ts [--rounds 6]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, pgliteDurabilityOf } from '../apps/server/src/db/client.js';
import {
  INDEX_INSTANCE_STATEMENT,
  INDEX_STUDY_STATEMENT,
  type IndexRow,
} from '../apps/server/src/db/instance-index.js';
import { PgliteInstanceIndex } from '../apps/server/src/db/instance-index-pglite.js';
import { centers, groups, labBillTests } from '../apps/server/src/db/schema.js';
import { IndexWriter } from '../apps/server/src/modules/archive/index-writer.js';

const args = process.argv.slice(2);
const ROUNDS = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 6;
const out = (line: string) => process.stdout.write(`${line}\n`);

/** The statements as they were before the link: the two lab CTEs cut out. */
const BASE_STATEMENTS = INDEX_INSTANCE_STATEMENT.replace(
  /lab_line as \([\s\S]*?\n\),\nlab_line_audit as \([\s\S]*?\n\),\n/,
  '',
);
if (BASE_STATEMENTS === INDEX_INSTANCE_STATEMENT)
  throw new Error('the lab CTEs were not found in INDEX_INSTANCE_STATEMENT');

let serial = 0;
function row(groupId: number, centerId: number, study: string, accession: string): IndexRow {
  const sop = `2.25.${Date.now()}${++serial}`;
  return {
    groupId,
    centerId,
    studyInstanceUid: study,
    seriesInstanceUid: `${study}.1`,
    sopInstanceUid: sop,
    sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
    transferSyntaxUid: '1.2.840.10008.1.2.1',
    study: {
      patientName: 'Kumar^Ravi',
      patientId: 'P1',
      issuerOfPatientId: '',
      patientSex: 'M',
      patientAge: '040Y',
      patientBirthDate: '',
      studyDate: '20260310',
      studyTime: '',
      studyDescription: 'CT Brain',
      accessionNumber: accession,
      studyIdentifier: '',
      institutionName: '',
      referringPhysicianName: '',
    },
    modality: 'CT',
    seriesDescription: '',
    seriesNumber: 1,
    bodyPartExamined: '',
    instanceNumber: 1,
    numberOfFrames: 1,
    rows: 512,
    columns: 512,
    blobKey: `dicom/${groupId}/x/${study}/${sop}.dcm`,
    sizeBytes: 100,
    sha256: 'a'.repeat(64),
    metadata: '{}',
    frames: null,
    source: 'DIMSE',
    callingAet: 'BENCHCT',
    actorUserId: null,
    receivedAt: new Date(),
  };
}

async function database(dir: string, instanceStatement: string) {
  const handle = await openPglite({ dataDir: join(dir, 'db') });
  await handle.migrate();
  const index = new PgliteInstanceIndex(handle.client, pgliteDurabilityOf(handle.client), {
    study: INDEX_STUDY_STATEMENT,
    instance: instanceStatement,
  });
  const [group] = await handle.db.insert(groups).values({ name: 'g' }).returning();
  const [center] = await handle.db
    .insert(centers)
    .values({ groupId: group!.id, name: 'c', email: 'c@bench.local', aeTitles: ['BENCHCT'] })
    .returning();
  // A lab with 100 × ROUNDS lines to link (one bill each is not needed: one bill holds them).
  const owner = { groupId: group!.id, labScope: 'CENTER' as const, labOwnerId: center!.id };
  const { sql } = await import('drizzle-orm');
  await handle.db
    .execute(sql`insert into lab_patients (group_id, lab_scope, lab_owner_id, uhid_number, name, gender, designation, created_by)
    values (${owner.groupId}, 'CENTER', ${owner.labOwnerId}, 'UH1', 'Ravi Kumar', 'M', 'MR', 'bench')`);
  await handle.db
    .execute(sql`insert into lab_tests (group_id, lab_scope, lab_owner_id, test_code, test_name, test_type, lab_modality, price_minor, created_by)
    values (${owner.groupId}, 'CENTER', ${owner.labOwnerId}, 'T1', 'CT Brain', 'NORMAL', 'CT', 1, 'bench')`);
  await handle.db
    .execute(sql`insert into lab_bills (group_id, lab_scope, lab_owner_id, invoice_number, status, bill_date, initial_bill_date, patient_id, total_minor, final_minor, payment_method, created_by)
    select ${owner.groupId}, 'CENTER', ${owner.labOwnerId}, 'INV1', 'OPEN', now(), now(), (select id from lab_patients), 1, 1, 'UPI', 'bench'`);
  await handle.db
    .execute(sql`insert into lab_bill_tests (bill_id, position, lab_test_id, test_code, test_name, lab_modality, department, original_price_minor, price_minor, accession_number)
    select (select id from lab_bills), g, (select id from lab_tests), 'T1', 'CT Brain', 'CT', 'RADIOLOGY', 1, 1, 'RF' || lpad(g::text, 8, '0')
      from generate_series(1, ${100 * (ROUNDS + 1)}) g`);
  return { handle, groupId: group!.id, centerId: center!.id, writer: new IndexWriter(index), next: 1 };
}

type Db = Awaited<ReturnType<typeof database>>;

/** One round: CPU and wall ms per instance of the linking new studies and of one study's instances. */
async function round(db: Db) {
  const measure = async (rows: IndexRow[]) => {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const r of rows) await db.writer.write(r);
    const used = process.cpuUsage(cpu);
    return {
      cpu: (used.user + used.system) / 1000 / rows.length,
      wall: (performance.now() - start) / rows.length,
    };
  };
  const study = `2.25.9${Date.now()}${++serial}`;
  const linking = Array.from({ length: 100 }, () =>
    row(db.groupId, db.centerId, `2.25.8${Date.now()}${++serial}`, `RF${String(db.next++).padStart(8, '0')}`),
  );
  const sameStudy = Array.from({ length: 200 }, () => row(db.groupId, db.centerId, study, 'RF99999999'));
  return { newStudies: await measure(linking), oneStudy: await measure(sameStudy) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'radflow-bench-mwl-ingest-'));
  const base = await database(join(dir, 'base'), BASE_STATEMENTS);
  const next = await database(join(dir, 'new'), INDEX_INSTANCE_STATEMENT);
  const results = {
    base: [] as Awaited<ReturnType<typeof round>>[],
    new: [] as Awaited<ReturnType<typeof round>>[],
  };
  try {
    await round(base);
    await round(next);
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        results.base.push(await round(base));
        results.new.push(await round(next));
      } else {
        results.new.push(await round(next));
        results.base.push(await round(base));
      }
    }
    const linked = await next.handle.db.$count(
      labBillTests,
      (await import('drizzle-orm')).isNotNull(labBillTests.studyId),
    );
    out(
      `\nIndex writer alone, PGlite, lone instances, ${ROUNDS} rounds alternating (median of rounds); lines linked: ${linked}\n`,
    );
    out('| statement | new studies: CPU ms/inst | wall ms/inst | one study: CPU ms/inst | wall ms/inst |');
    out('|---|---|---|---|---|');
    for (const [name, rounds] of Object.entries(results)) {
      const f = (pick: (r: Awaited<ReturnType<typeof round>>) => number) =>
        median(rounds.map(pick)).toFixed(2);
      out(
        `| ${name} | ${f((r) => r.newStudies.cpu)} | ${f((r) => r.newStudies.wall)} | ${f((r) => r.oneStudy.cpu)} | ${f((r) => r.oneStudy.wall)} |`,
      );
    }
  } finally {
    await base.handle.close();
    await next.handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
