/**
 * A worklist of N studies for the list benchmarks (issue 4 §5), written with a few set-based
 * statements (generate_series, no row-by-row inserts) into the real schema, through the server's
 * own database clients and migrations. Shape of a live teleradiology group:
 * - 3 groups, 20 centers (10 / 6 / 4, the first centers busier), 30 doctors (14 / 10 / 6) and one
 *   admin per group; every bench account has the password BENCH_PASSWORD;
 * - created_at spread evenly over 2 years, rising with the id as in a live system; studies of the last 21 days are 60 % open, older ones 0.5 %
 *   (stragglers), 2 % DELETED, the rest SIGNED_OFF: about 2–3 % open overall;
 * - 3 % urgent; 92 % of the non-CREATED rows assigned to one of the group's doctors (some doctors
 *   busier than others); patient names 'LAST^FIRST' (half upper-cased) from 150 surnames × 80 given
 *   names, so one surname is ~0.7 % of the rows; 5 % of the rows carry a tag, 1 % a second one.
 * Values come from hashes of the row number, so two seeds of the same N hold the same data.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { DbHandle } from '../../apps/server/src/db/client.js';
import { hashPassword } from '../../apps/server/src/modules/auth/passwords.js';

export const BENCH_PASSWORD = 'bench-pass-1';
const GROUP_PREFIX = 'Bench worklist group';
const UID_PREFIX = '2.25.31415926';
/** Centers per group and doctors per group; the first group is the big one. */
const CENTERS_PER_GROUP = [10, 6, 4] as const;
const DOCTORS_PER_GROUP = [14, 10, 6] as const;
const DAYS = 730;

export type TBenchDbKind = 'postgres' | 'pglite';

export interface TBenchUser {
  id: number;
  email: string;
  groupId: number;
}

export interface TWorklistSeed {
  studies: number;
  groups: Array<{ id: number; studies: number; admin: TBenchUser; doctors: TBenchUser[] }>;
  /** Lower-case pieces of surnames, each in exactly one surname (a partial patient-name filter). */
  nameFragments: string[];
  /** The span of created_at, for date-range requests. */
  oldest: Date;
  newest: Date;
}

/** One database session: multi-statement text, or one statement's rows. */
export interface TSqlSession {
  exec(text: string): Promise<void>;
  rows<T>(text: string): Promise<T[]>;
  release(): void;
}

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
const GIVEN_NAMES = (
  'Aarav Vivaan Aditya Arjun Sai Reyansh Krishna Ishaan Rohan Kabir Ananya Diya Saanvi Aadhya ' +
  'Myra Aarohi Pari Anika Navya Riya Priya Neha Pooja Kavya Meera Lakshmi Suresh Ramesh Mahesh ' +
  'Ganesh Rajesh Dinesh Mukesh Sunil Anil Vijay Sanjay Ajay Manoj Deepak Fatima Ayesha Zainab ' +
  'Imran Farhan Salman Mary Joseph Thomas George Maria Anna John Peter Paul David James Sarah ' +
  'Emma Olivia Liam Noah Lucas Sofia Elena Marco Luca Yuki Hiro Mei Ling Kwame Amara Chidi Ngozi Omar Leila'
).split(' ');
const REFERRING = [
  'Dr Anand Rao',
  'Dr Bela Sen',
  'Dr Chetan Vyas',
  'Dr Divya Nair',
  'Dr Eshan Gupta',
  'Dr Farah Khan',
  'Dr Gopal Krishnan',
  'Dr Hema Iyer',
  'Dr Irfan Sheikh',
  'Dr Jaya Pillai',
  'Dr Kiran Bedi',
  'Dr Lata Menon',
  '',
];
/** modality, description, series, images per series; CR/DX first: the most frequent. */
const PROCEDURES: ReadonlyArray<readonly [string, string, number, number]> = [
  ['DX', 'X-RAY CHEST PA', 1, 1],
  ['CR', 'X-RAY KNEE AP/LAT', 1, 2],
  ['CT', 'CT BRAIN PLAIN', 3, 40],
  ['US', 'USG ABDOMEN', 1, 12],
  ['MR', 'MRI BRAIN PLAIN', 6, 24],
  ['CT', 'CT CHEST HRCT', 4, 300],
  ['MR', 'MRI LS SPINE', 7, 20],
  ['CT', 'CT ABDOMEN CONTRAST', 5, 250],
  ['MR', 'MRI KNEE', 6, 22],
  ['MG', 'MAMMOGRAPHY BILATERAL', 1, 4],
  ['CT', 'CT ANGIO CORONARY', 6, 400],
  ['NM', 'PET CT WHOLE BODY', 4, 500],
];
const TAGS = ['follow-up', 'second-opinion', 'teaching', 'billing-hold', 'callback', 'priority-review'];
const SECOND_TAGS = ['peer-review', 'incidental', 'critical-finding', 'research'];

/** A pseudo-uniform value in [0, 1) from a row number and a salt (hashint4 is built into PostgreSQL). */
const uniform = (expr: string, salt: number) =>
  `((hashint4(${expr} # ${salt})::float8 + 2147483648) / 4294967296)`;
const textArray = (values: readonly string[]) =>
  `'{${values.map((v) => `"${v.replace(/["\\']/g, '')}"`).join(',')}}'::text[]`;
const intArray = (values: readonly number[]) => `'{${values.join(',')}}'::int[]`;

/**
 * For each surname, a shortest piece (4–6 letters) found in no other surname and no given name,
 * so a "contains" filter on it matches that surname's rows only (~1/150 of the list).
 */
export function uniqueNameFragments(): string[] {
  const others = [...SURNAMES, ...GIVEN_NAMES].map((n) => n.toLowerCase());
  const fragments: string[] = [];
  for (const surname of SURNAMES.map((s) => s.toLowerCase())) {
    let found: string | undefined;
    for (let length = 4; length <= 6 && !found; length++) {
      for (let at = 0; at + length <= surname.length && !found; at++) {
        const piece = surname.slice(at, at + length);
        if (others.filter((o) => o.includes(piece)).length === 1) found = piece;
      }
    }
    if (found) fragments.push(found);
  }
  return fragments;
}

/** The indexes of the big tables that no constraint owns: dropped before the load, rebuilt after. */
async function dropSecondaryIndexes(session: TSqlSession): Promise<string[]> {
  const indexes = await session.rows<{ name: string; def: string }>(`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_class t ON t.oid = i.indrelid
    WHERE t.relname IN ('studies', 'report_statuses', 'report_tags')
      AND t.relnamespace = 'public'::regnamespace
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`);
  for (const index of indexes) await session.exec(`DROP INDEX "${index.name}"`);
  return indexes.map((i) => i.def);
}

async function insertAccounts(session: TSqlSession, passwordHash: string) {
  const groupRows = await session.rows<{ id: number }>(
    `INSERT INTO groups (name) VALUES ${CENTERS_PER_GROUP.map((_, g) => `('${GROUP_PREFIX} ${g + 1}')`).join(', ')} RETURNING id`,
  );
  const groupIds = groupRows.map((r) => r.id);
  const centerValues: string[] = [];
  CENTERS_PER_GROUP.forEach((count, g) => {
    for (let c = 0; c < count; c++) {
      const n = String(centerValues.length + 1).padStart(2, '0');
      centerValues.push(
        `(${groupIds[g]}, 'Bench Imaging ${n}', 'bench-center-${n}@bench.local', '{BENCH${n}}')`,
      );
    }
  });
  const centerRows = await session.rows<{ id: number; group_id: number }>(
    `INSERT INTO centers (group_id, name, email, ae_titles) VALUES ${centerValues.join(', ')} RETURNING id, group_id`,
  );
  const userValues: string[] = [];
  groupIds.forEach((groupId, g) => {
    userValues.push(
      `('bench-admin-${g + 1}@bench.local', '${passwordHash}', '{ROLE_ADMIN}', ${groupId}, 'Bench Admin ${g + 1}')`,
    );
    for (let d = 1; d <= (DOCTORS_PER_GROUP[g] ?? 0); d++) {
      userValues.push(
        `('bench-doctor-${g + 1}-${d}@bench.local', '${passwordHash}', '{ROLE_DOCTOR}', ${groupId}, 'Dr Bench ${g + 1}.${d}')`,
      );
    }
  });
  await session.exec(
    `INSERT INTO users (email, password_hash, roles, group_id, identifier) VALUES ${userValues.join(', ')}`,
  );
  return { groupIds, centerRows };
}

async function insertStudies(
  session: TSqlSession,
  n: number,
  anchor: Date,
  centerRows: ReadonlyArray<{ id: number; group_id: number }>,
): Promise<void> {
  const u = (k: number) => uniform('g', k * 7919);
  // The first centers are the busy ones: center index = floor(20 · u^1.3).
  const centerIds = intArray(centerRows.map((c) => c.id));
  const centerGroups = intArray(centerRows.map((c) => c.group_id));
  const proc = (column: number) =>
    column < 2
      ? textArray(PROCEDURES.map((p) => p[column] as string))
      : intArray(PROCEDURES.map((p) => p[column] as number));
  await session.exec(`
    INSERT INTO studies (group_id, center_id, study_instance_uid, patient_name, patient_id, patient_sex,
      patient_age, patient_birth_date, study_date, study_time, study_description, accession_number,
      study_identifier, institution_name, referring_physician_name, modalities, series_count,
      instance_count, size_bytes, last_instance_at, created_at)
    SELECT (${centerGroups})[r.c], (${centerIds})[r.c], '${UID_PREFIX}' || r.g,
      CASE WHEN r.u3 < 0.5 THEN upper(r.name) ELSE r.name END,
      'P' || lpad(floor(r.u4 * 9000000)::int::text, 7, '0'),
      CASE WHEN r.u6 < 0.5 THEN 'M' ELSE 'F' END,
      lpad(r.age::text, 3, '0') || 'Y',
      to_char(r.created - r.age * interval '1 year', 'YYYYMMDD'),
      to_char(r.created, 'YYYYMMDD'), to_char(r.created, 'HH24MISS'),
      (${proc(1)})[r.p], 'ACC' || r.g, (r.g % 100000)::text, 'Bench Imaging',
      (${textArray(REFERRING)})[1 + floor(r.u7 * ${REFERRING.length})::int],
      ARRAY[(${proc(0)})[r.p]], (${proc(2)})[r.p], (${proc(2)})[r.p] * (${proc(3)})[r.p],
      (${proc(2)})[r.p] * (${proc(3)})[r.p] * 524288::bigint,
      r.created + interval '4 minutes', r.created
    FROM (
      SELECT g, ${u(3)} AS u3, ${u(4)} AS u4, ${u(6)} AS u6, ${u(7)} AS u7,
        1 + least(${centerRows.length - 1}, floor(${centerRows.length} * power(${u(1)}, 1.3))::int) AS c,
        1 + least(${PROCEDURES.length - 1}, floor(${PROCEDURES.length} * power(${u(8)}, 1.6))::int) AS p,
        1 + floor(${u(9)} * 89)::int AS age,
        (${textArray(SURNAMES)})[1 + floor(${u(2)} * ${SURNAMES.length})::int] || '^' ||
          (${textArray(GIVEN_NAMES)})[1 + floor(${u(5)} * ${GIVEN_NAMES.length})::int] AS name,
        -- Rows arrive in time order, as in a live system (ids and created_at rise together).
        timestamptz '${anchor.toISOString()}' - (${n} - g)::float8 / ${n} * interval '${DAYS} days'
          - ${u(10)} * interval '2 hours' AS created
      FROM generate_series(1, ${n}) AS g
    ) r`);
}

async function insertReportRows(
  session: TSqlSession,
  anchor: Date,
  groupIds: readonly number[],
): Promise<void> {
  const v = (k: number) => uniform('s.id', 104729 + k * 131);
  await session.exec(`
    INSERT INTO report_statuses (study_id, group_id, center_id, api_version, status, urgent, study_name,
      history, uhid, patient_name, patient_id, patient_sex, patient_age, referring_physician_name,
      accession_number, assigned_to_user_id, assigned_at, locked_by_user_id, signed_off_at,
      first_signed_off_at, printed_at, deleted_at, first_upload_completed_at, last_upload_completed_at,
      created_at, updated_at)
    SELECT x.id, x.group_id, x.center_id, 2, x.status, x.v7 < 0.03, x.study_description,
      CASE WHEN x.v8 < 0.4 THEN 'Clinical history ' || (x.id % 97) ELSE '' END,
      CASE WHEN x.v8 < 0.3 THEN 'UH' || (x.id % 1000000) ELSE '' END,
      x.patient_name, x.patient_id, x.patient_sex, x.patient_age, x.referring_physician_name,
      x.accession_number, x.assignee, x.created_at + interval '20 minutes',
      CASE WHEN x.status = 'LOCKED' THEN x.assignee END,
      x.signed_off, x.signed_off,
      CASE WHEN x.signed_off IS NOT NULL AND x.v6 < 0.7 THEN x.signed_off + interval '1 hour' END,
      CASE WHEN x.status = 'DELETED' THEN x.created_at + interval '2 hours' END,
      x.created_at + interval '5 minutes', x.created_at + interval '5 minutes',
      x.created_at, x.created_at
    FROM (
      SELECT s.*, st.status, ${v(6)} AS v6, ${v(7)} AS v7, ${v(8)} AS v8,
        CASE WHEN st.status <> 'CREATED' AND ${v(3)} < 0.92
          THEN d.ids[1 + least(array_length(d.ids, 1) - 1, floor(array_length(d.ids, 1) * power(${v(4)}, 1.2))::int)]
        END AS assignee,
        CASE WHEN st.status = 'SIGNED_OFF' THEN s.created_at + (1 + ${v(5)} * 47) * interval '1 hour' END AS signed_off
      FROM studies s
      JOIN (
        SELECT group_id, array_agg(id ORDER BY id) AS ids FROM users
        WHERE email LIKE 'bench-doctor-%' GROUP BY group_id
      ) d ON d.group_id = s.group_id
      CROSS JOIN LATERAL (SELECT CASE
        WHEN ${v(1)} < CASE WHEN s.created_at > timestamptz '${anchor.toISOString()}' - interval '21 days' THEN 0.6 ELSE 0.005 END
          THEN CASE WHEN ${v(2)} < 0.25 THEN 'CREATED' WHEN ${v(2)} < 0.65 THEN 'HISTORY_CREATED'
            WHEN ${v(2)} < 0.75 THEN 'LOCKED' WHEN ${v(2)} < 0.85 THEN 'REPORTED' ELSE 'DRAFTED' END
        WHEN ${v(1)} > 0.98 THEN 'DELETED'
        ELSE 'SIGNED_OFF' END AS status) st
      WHERE s.group_id IN (${groupIds.join(', ')})
    ) x
    ORDER BY x.id`);
  const t = (k: number) => `(hashint4(r.id # ${k}) & 2147483647)`;
  await session.exec(`
    INSERT INTO report_tags (group_id, report_status_id, tag, global_tag, created_at)
    SELECT r.group_id, r.id, (${textArray(TAGS)})[1 + ${t(5003)} % ${TAGS.length}], ${t(5009)} % 2 = 0, r.created_at
    FROM report_statuses r WHERE r.group_id IN (${groupIds.join(', ')}) AND ${t(5011)} % 100 < 5
    UNION ALL
    SELECT r.group_id, r.id, (${textArray(SECOND_TAGS)})[1 + ${t(5021)} % ${SECOND_TAGS.length}], true, r.created_at
    FROM report_statuses r WHERE r.group_id IN (${groupIds.join(', ')}) AND ${t(5011)} % 100 < 1`);
}

/** Seeds an empty, migrated database; `log` hears each phase with its seconds. */
export async function seedWorklist(
  session: TSqlSession,
  kind: TBenchDbKind,
  n: number,
  log: (line: string) => void,
): Promise<void> {
  const phase = async (name: string, fn: () => Promise<unknown>) => {
    const started = Date.now();
    await fn();
    log(`  ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  const anchor = new Date();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const { groupIds, centerRows } = await insertAccounts(session, passwordHash);
  // Building an index once over loaded rows is many times cheaper than maintaining it per row.
  const indexDefs = await dropSecondaryIndexes(session);
  // The rows are consistent by construction: skip the per-row foreign-key triggers (superuser only;
  // without the right the load just runs them).
  const skipsTriggers = await session
    .exec(`SET session_replication_role = replica`)
    .then(() => true)
    .catch(() => false);
  await phase(`studies (${n})`, () => insertStudies(session, n, anchor, centerRows));
  await phase('report rows and tags', () => insertReportRows(session, anchor, groupIds));
  if (skipsTriggers) await session.exec(`SET session_replication_role = DEFAULT`);
  await session.exec(`SET maintenance_work_mem = '${kind === 'postgres' ? '512MB' : '128MB'}'`);
  await phase(`rebuild ${indexDefs.length} indexes`, async () => {
    for (const def of indexDefs) await session.exec(def);
  });
  // A live database has been vacuumed: visibility maps set, statistics current.
  await phase('vacuum analyze', async () => {
    for (const table of ['studies', 'report_statuses', 'report_tags', 'users', 'centers', 'groups']) {
      await session.exec(`VACUUM ANALYZE ${table}`);
    }
  });
}

export async function readSeed(session: TSqlSession): Promise<TWorklistSeed | null> {
  const groups = await session.rows<{ id: number; studies: string }>(`
    SELECT g.id, (SELECT count(*) FROM report_statuses r WHERE r.group_id = g.id) AS studies
    FROM groups g WHERE g.name LIKE '${GROUP_PREFIX} %' ORDER BY g.id`);
  if (groups.length !== CENTERS_PER_GROUP.length) return null;
  const accounts = await session.rows<TBenchUser & { group_id: number }>(
    `SELECT id, email, group_id FROM users WHERE email LIKE 'bench-%@bench.local' ORDER BY id`,
  );
  const [span] = await session.rows<{ oldest: string; newest: string }>(
    `SELECT (extract(epoch FROM min(created_at)) * 1000)::float8::text AS oldest, (extract(epoch FROM max(created_at)) * 1000)::float8::text AS newest FROM report_statuses`,
  );
  const seed: TWorklistSeed = {
    studies: groups.reduce((sum, g) => sum + Number(g.studies), 0),
    groups: [],
    nameFragments: uniqueNameFragments(),
    oldest: new Date(Number(span?.oldest ?? 0)),
    newest: new Date(Number(span?.newest ?? 0)),
  };
  for (const group of groups) {
    const mine = accounts
      .filter((a) => a.group_id === group.id)
      .map((a) => ({ id: a.id, email: a.email, groupId: a.group_id }));
    const admin = mine.find((a) => a.email.startsWith('bench-admin-'));
    if (!admin) return null;
    seed.groups.push({
      id: group.id,
      studies: Number(group.studies),
      admin,
      doctors: mine.filter((a) => a.email.startsWith('bench-doctor-')),
    });
  }
  return seed;
}

export async function sessionOf(kind: TBenchDbKind, handle: DbHandle): Promise<TSqlSession> {
  if (kind === 'postgres') {
    const client = await (handle as DbHandle & { pool: pg.Pool }).pool.connect();
    return {
      exec: async (text) => void (await client.query(text)),
      rows: async <T>(text: string) => (await client.query(text)).rows as T[],
      release: () => client.release(),
    };
  }
  const { client } = handle as DbHandle & { client: PGlite };
  return {
    exec: async (text) => void (await client.exec(text)),
    rows: async <T>(text: string) => (await client.query<T>(text)).rows,
    release: () => undefined,
  };
}
