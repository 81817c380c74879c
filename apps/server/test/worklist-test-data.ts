import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TRole, TStudyListPage } from '@radflow/core';
import type { Db } from '../src/db/client.js';
import { reportStatuses, reportTags, studies, userMappings } from '../src/db/schema.js';
import { type TestApp, TestClient, createTestUser } from './test-app.js';

type TReportRowValues = Partial<typeof reportStatuses.$inferInsert>;

/**
 * A study and its report row, inserted directly (the lists read rows; ingest has its own tests).
 * The patient fields go on both, as ingest copies them; `row` sets any other report-row column.
 */
export async function createTestStudy(
  db: Db,
  opts: {
    groupId: number;
    centerId: number;
    patientName?: string;
    patientId?: string;
    studyDate?: string;
    studyTime?: string;
    modalities?: string[];
    row?: TReportRowValues;
  },
) {
  const uid = `1.2.826.0.1.${Date.now()}.${randomBytes(4).readUInt32BE()}`;
  const patientName = opts.patientName ?? 'DOE^JANE';
  const patientId = opts.patientId ?? `P${randomBytes(3).toString('hex')}`;
  const [study] = await db
    .insert(studies)
    .values({
      groupId: opts.groupId,
      centerId: opts.centerId,
      studyInstanceUid: uid,
      patientName,
      patientId,
      studyDate: opts.studyDate ?? '',
      studyTime: opts.studyTime ?? '',
      modalities: opts.modalities ?? ['CT'],
      seriesCount: 2,
      instanceCount: 10,
    })
    .returning();
  if (!study) throw new Error('study not created');
  const [row] = await db
    .insert(reportStatuses)
    .values({
      studyId: study.id,
      groupId: opts.groupId,
      centerId: opts.centerId,
      patientName,
      patientId,
      ...opts.row,
    })
    .returning();
  if (!row) throw new Error('report status not created');
  return { study, row };
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

/** A user of the roles, signed in through the login form. */
export async function signedIn(
  t: TestApp,
  opts: { roles: TRole[]; groupId: number; centerId?: number | null; mobileNumber?: string | null },
) {
  const user = await createTestUser(t.db, opts);
  const browser = new TestClient(t.app);
  expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
  return { user, browser };
}

export async function list(browser: TestClient, path: string, body: Record<string, unknown> = {}) {
  const res = await browser.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TStudyListPage>();
}

/** The page's row ids, sorted (for set comparisons). */
export const idsOf = (page: TStudyListPage) => page.content.map((r) => r.id).sort((a, b) => a - b);
