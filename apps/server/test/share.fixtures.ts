import { eq } from 'drizzle-orm';
import { readFixture } from '../../../packages/dicom/src/test-fixtures.js';
import type { TGroupFlags } from '@radflow/core';
import { reportStatuses, reports } from '../src/db/schema.js';
import { ingestInstance } from '../src/modules/archive/ingest.js';
import { ensureShareLink } from '../src/modules/share-links/share-link.js';
import { type TestApp, createTestUser, setGroupPreference } from './test-app.js';
import { createTestStudy, createTestWorld } from './worklist-test-data.js';

type TRowValues = Partial<typeof reportStatuses.$inferInsert>;

/** Builders of the share tests: a group with its switches, a shared study, its signed report. */
export function shareBuilders(getApp: () => TestApp) {
  const db = () => getApp().db;

  async function world(flags: Partial<TGroupFlags> = {}, validityDays: number | null = null) {
    const place = await createTestWorld(db(), flags);
    if (validityDays !== null) {
      await setGroupPreference(db(), place.group.id, 'ADMIN_PREFERENCES', {
        shareLinkValidityDays: validityDays,
      });
    }
    const doctor = await createTestUser(db(), {
      roles: ['ROLE_DOCTOR'],
      groupId: place.group.id,
      identifier: 'Dr Rao',
    });
    return { ...place, doctor };
  }

  type TWorld = Awaited<ReturnType<typeof world>>;

  /** A study (no images) with its share link; `row` sets any column of the report row. */
  async function sharedStudy(w: TWorld, row: TRowValues = {}) {
    const { row: created, study } = await createTestStudy(db(), {
      groupId: w.group.id,
      centerId: w.center.id,
      patientName: 'SHARMA^ASHA',
      studyDate: '20260105',
      row: { studyName: 'MRI BRAIN', ...row },
    });
    const token = await ensureShareLink(db(), created.id, getApp().clock.now);
    return { row: created, study, token };
  }

  /** A study of one corpus image (ingested as a center upload) with its share link. */
  async function sharedImageStudy(w: TWorld, fixture: string) {
    const result = await ingestInstance(
      getApp().app.ctx,
      { bytes: readFixture(fixture) },
      { centerId: w.center.id, source: 'STOW' },
    );
    if (!result.ok) throw new Error(`${fixture}: ${result.reason}`);
    const token = await ensureShareLink(db(), result.reportStatusId, getApp().clock.now);
    return { ...result, token };
  }

  /** The row's main report, signed by the world's doctor, and the row SIGNED_OFF. */
  async function signReport(w: TWorld, reportStatusId: number, content = '<p>No acute bleed.</p>') {
    const signedOffAt = new Date();
    await db().insert(reports).values({
      reportStatusId,
      name: 'MRI Brain',
      contentHtml: content,
      doctorUserId: w.doctor.id,
      typedByUserId: w.doctor.id,
      signedOffByUserId: w.doctor.id,
      signedOffAt,
      signatureName: 'Dr Rao, MD',
    });
    await db()
      .update(reportStatuses)
      .set({ status: 'SIGNED_OFF', signedOffAt, firstSignedOffAt: signedOffAt })
      .where(eq(reportStatuses.id, reportStatusId));
  }

  async function addAddendum(w: TWorld, reportStatusId: number, content: string) {
    await db().insert(reports).values({
      reportStatusId,
      name: 'Addendum',
      contentHtml: content,
      doctorUserId: w.doctor.id,
      typedByUserId: w.doctor.id,
      isAddendum: true,
      signedOffByUserId: w.doctor.id,
      signedOffAt: new Date(),
      signatureName: 'Dr Rao, MD',
    });
  }

  return { world, sharedStudy, sharedImageStudy, signReport, addAddendum };
}
