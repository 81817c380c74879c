import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TGroupFlags, TRole, TStudyDetail } from '@radflow/core';
import type { LightMyRequestResponse } from 'fastify';
import { type TReportStatusRow, reportStatuses, studyEvents } from '../src/db/schema.js';
import type { TestApp } from './test-app.js';
import { createTestStudy, createTestWorld, signedInAt } from './worklist-test-data.js';

/** Builders for the study-action stories: a group with a center, studies in a given state, users. */
export function studyActionFixtures(getApp: () => TestApp) {
  const t = () => getApp();
  type TWorld = { group: { id: number }; center: { id: number } };

  /** A group with one center, and the group switches the story needs. */
  const createWorld = (flags: Partial<TGroupFlags> = {}) => createTestWorld(t().db, flags);

  /** An archive study (1 series, 3 images) and its report row in the state `row` gives. */
  async function createStudy(world: TWorld, row: Partial<typeof reportStatuses.$inferInsert> = {}) {
    const created = await createTestStudy(t().db, {
      groupId: world.group.id,
      centerId: world.center.id,
      patientId: 'P-1',
      study: { seriesCount: 1, instanceCount: 3 },
      row,
    });
    return created.row;
  }

  /** A signed-in browser of a new user with `roles` in the world's group (center users in its center). */
  const signIn = (world: TWorld, roles: TRole[]) => signedInAt(t(), world, roles);

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

  /**
   * The row and its timeline, to show that a refused call changed nothing: as readRow and
   * readEvents give them, in one query (the access matrix takes two snapshots per cell).
   */
  async function snapshot(id: number) {
    const joined = await t()
      .db.select()
      .from(reportStatuses)
      .leftJoin(studyEvents, eq(studyEvents.reportStatusId, reportStatuses.id))
      .where(eq(reportStatuses.id, id))
      .orderBy(asc(studyEvents.id));
    const row = joined[0]?.report_statuses;
    if (!row) throw new Error(`no row ${id}`);
    return { row, events: joined.flatMap((r) => (r.study_events ? [r.study_events] : [])) };
  }

  return { createWorld, createStudy, signIn, readRow, readEvents, snapshot };
}

/** The answer's status and (for a success) the study row. */
export function expectStatus(res: LightMyRequestResponse, status: number): TStudyDetail {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<TStudyDetail>();
}
