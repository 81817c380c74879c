import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TRole, TStudyListPage } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import { reportStatuses, reportTags, studies, userMappings } from '../src/db/schema.js';
import { type TSignedIn, type TestApp, type TestClient, createTestWorld, signInAt } from './test-app.js';

/*
 * The builders of the worklist and study-action tests: a group with a center, a study with its
 * report row in any state, a signed-in user of any roles. Each call makes new rows with unique keys,
 * so tests never share (or mutate) a fixture.
 */

type TReportRowValues = Partial<typeof reportStatuses.$inferInsert>;
type TStudyValues = Partial<typeof studies.$inferInsert>;

/**
 * A study and its report row, inserted directly (the lists and actions read rows; ingest has its own
 * tests). The patient fields go on both, as ingest copies them; `study` and `row` set any other
 * column of the archive study and of the report row.
 */
export type TTestStudyOptions = {
  groupId: number;
  centerId: number;
  patientName?: string;
  /** Default: a new one per study. */
  patientId?: string;
  studyDate?: string;
  studyTime?: string;
  modalities?: string[];
  study?: TStudyValues;
  row?: TReportRowValues;
};

export async function createTestStudy(db: Db, opts: TTestStudyOptions) {
  const [made] = await createTestStudies(db, 1, opts);
  if (!made) throw new Error('study not created');
  return made;
}

/**
 * `count` studies as createTestStudy makes them (same options, each its own UID and, unless given,
 * patient id), in one insert per table: for tests that need a fresh study per case, many at once.
 */
export async function createTestStudies(db: Db, count: number, opts: TTestStudyOptions) {
  if (count === 0) return [];
  const patientName = opts.patientName ?? 'DOE^JANE';
  const made = await db
    .insert(studies)
    .values(
      Array.from({ length: count }, () => ({
        groupId: opts.groupId,
        centerId: opts.centerId,
        studyInstanceUid: `1.2.826.0.1.${Date.now()}.${randomBytes(4).readUInt32BE()}`,
        patientName,
        patientId: opts.patientId ?? `P${randomBytes(3).toString('hex')}`,
        studyDate: opts.studyDate ?? '',
        studyTime: opts.studyTime ?? '',
        modalities: opts.modalities ?? ['CT'],
        seriesCount: 2,
        instanceCount: 10,
        ...opts.study,
      })),
    )
    .returning();
  const rows = await db
    .insert(reportStatuses)
    .values(
      made.map((study) => ({
        studyId: study.id,
        groupId: opts.groupId,
        centerId: opts.centerId,
        patientName,
        patientId: study.patientId,
        ...opts.row,
      })),
    )
    .returning();
  if (made.length !== count || rows.length !== count) throw new Error('studies not created');
  // Inserted rows come back in the order of the values (one statement, one VALUES list).
  return made.map((study, i) => {
    const row = rows[i]!;
    if (row.studyId !== study.id) throw new Error('report rows out of order');
    return { study, row };
  });
}

export async function addTestTag(
  db: Db,
  opts: {
    groupId: number;
    reportStatusId: number;
    tag: string;
    globalTag?: boolean;
    createdByUserId?: number;
  },
) {
  const [tag] = await db
    .insert(reportTags)
    .values({
      groupId: opts.groupId,
      reportStatusId: opts.reportStatusId,
      tag: opts.tag,
      globalTag: opts.globalTag ?? false,
      createdByUserId: opts.createdByUserId ?? null,
    })
    .returning();
  if (!tag) throw new Error('tag not created');
  return tag;
}

/** user_mappings: `userId` works with `mappedUserId` under `role` (a typist's doctor: ROLE_DOCTOR). */
export async function mapTestUser(db: Db, userId: number, role: TRole, mappedUserId: number) {
  await db.insert(userMappings).values({ userId, role, mappedUserId });
}

// The group-and-center and signed-in builders live in test-app.ts; the names the tests know stay.
export { createTestWorld, signIn as signedIn, signInAt as signedInAt } from './test-app.js';

type TPlace = { group: { id: number }; center: { id: number } };

/** Signed-in users of the place's group, one per name (`{ doctor: ['ROLE_DOCTOR'] }`). */
export async function signedInUsers<TName extends string>(
  t: TestApp,
  place: TPlace,
  rolesByName: Record<TName, TRole[]>,
) {
  const users = {} as Record<TName, TSignedIn>;
  for (const [name, roles] of Object.entries(rolesByName) as Array<[TName, TRole[]]>) {
    users[name] = await signInAt(t, place, roles);
  }
  return users;
}

/**
 * A group with a center and signed-in users of the named roles, beside a second group ("other")
 * with its own: the shape of every "who may act on this study" test.
 */
export async function createTwoWorlds<THome extends string, TOther extends string>(
  t: TestApp,
  homeRoles: Record<THome, TRole[]>,
  otherRoles: Record<TOther, TRole[]>,
) {
  const home = await createTestWorld(t.db);
  const other = await createTestWorld(t.db);
  return {
    group: home.group,
    center: home.center,
    other,
    ...(await signedInUsers(t, home, homeRoles)),
    ...(await signedInUsers(t, other, otherRoles)),
  };
}

export async function list(browser: TestClient, path: string, body: Record<string, unknown> = {}) {
  const res = await browser.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TStudyListPage>();
}

/** The page's row ids, sorted (for set comparisons). */
export const idsOf = (page: TStudyListPage) => page.content.map((r) => r.id).sort((a, b) => a - b);
