import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TGroupFlags, TRole, TStudyDetail } from '@radflow/core';
import type { LightMyRequestResponse } from 'fastify';
import { type TReportStatusRow, reportStatuses, studies, studyEvents } from '../src/db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
} from './test-app.js';

/** Builders for the study-action stories: a group with a center, studies in a given state, users. */
export function studyActionFixtures(getApp: () => TestApp) {
  const t = () => getApp();

  /** A group with one center, and the group switches the story needs. */
  async function createWorld(flags: Partial<TGroupFlags> = {}) {
    const group = await createTestGroup(t().db);
    const center = await createTestCenter(t().db, { groupId: group.id });
    if (Object.keys(flags).length > 0) {
      // The switches live in two sections; each key is stored in both, unknown keys are dropped.
      await setGroupPreference(t().db, group.id, 'GROUP_SWITCHES', flags);
      await setGroupPreference(t().db, group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', flags);
    }
    return { group, center };
  }

  /** An archive study and its report row in `status`, inserted directly. */
  async function createStudy(
    world: { group: { id: number }; center: { id: number } },
    row: Partial<typeof reportStatuses.$inferInsert> = {},
  ) {
    const uid = `1.2.826.0.1.${Date.now()}.${randomBytes(4).readUInt32BE()}`;
    const [study] = await t()
      .db.insert(studies)
      .values({
        groupId: world.group.id,
        centerId: world.center.id,
        studyInstanceUid: uid,
        patientName: 'DOE^JANE',
        modalities: ['CT'],
        seriesCount: 1,
        instanceCount: 3,
      })
      .returning();
    if (!study) throw new Error('study not created');
    const [report] = await t()
      .db.insert(reportStatuses)
      .values({
        studyId: study.id,
        groupId: world.group.id,
        centerId: world.center.id,
        patientName: 'DOE^JANE',
        patientId: 'P-1',
        ...row,
      })
      .returning();
    if (!report) throw new Error('report row not created');
    return report;
  }

  /** A signed-in browser of a new user with `roles` in the world's group (center users in its center). */
  async function signIn(
    world: { group: { id: number }; center: { id: number } },
    roles: TRole[],
    opts: { atCenter?: boolean } = {},
  ) {
    const atCenter = opts.atCenter ?? roles.some((r) => r.startsWith('ROLE_CENTER'));
    const user = await createTestUser(t().db, {
      roles,
      groupId: world.group.id,
      centerId: atCenter ? world.center.id : null,
    });
    const browser = new TestClient(t().app);
    expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
    return { user, browser };
  }

  async function readRow(id: number): Promise<TReportStatusRow> {
    const [row] = await t().db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
    if (!row) throw new Error(`no row ${id}`);
    return row;
  }

  async function readEvents(id: number) {
    return t()
      .db.select()
      .from(studyEvents)
      .where(eq(studyEvents.reportStatusId, id))
      .orderBy(asc(studyEvents.id));
  }

  /** The row and its timeline, to show that a refused call changed nothing. */
  async function snapshot(id: number) {
    return { row: await readRow(id), events: await readEvents(id) };
  }

  return { createWorld, createStudy, signIn, readRow, readEvents, snapshot };
}

/** The answer's status and (for a success) the study row. */
export function expectStatus(res: LightMyRequestResponse, status: number): TStudyDetail {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<TStudyDetail>();
}
