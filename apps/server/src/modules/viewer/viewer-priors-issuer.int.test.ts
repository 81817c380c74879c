import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import type { TViewerPriors } from '@radflow/core';
import { parseInstance } from '@radflow/dicom/ingest';
import { reportStatuses, studies } from '../../db/schema.js';
import { editedDicom } from '../../../test/archive/dicom-edit.js';
import { readFixture } from '../../../test/archive/fixtures.js';
import { createArchiveWorld, stowBody } from '../../../test/archive/helpers.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';

/**
 * Priors (issue 21 §8): a patient is Patient ID with Issuer of Patient ID (0010,0021), as the files
 * sent them; a study of another issuer (or of none) with the same id is another patient and is not
 * listed. A prior listed under the same id and issuer whose name or birth date differ from the
 * current study's carries a warning naming what differs.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BASE = 'ct/ct_small_128x128_explicit_le.dcm';

interface TPatient {
  id: string;
  issuer: string | null;
  name: string;
  birthDate: string;
}

/** Sends a one-image study of `patient` by STOW-RS (the real ingest) and returns its report row id. */
async function stowStudy(client: TestClient, groupId: number, patient: TPatient, studyDate: string) {
  const bytes = editedDicom(readFixture(BASE), {
    PatientID: patient.id,
    IssuerOfPatientID: patient.issuer,
    PatientName: patient.name,
    PatientBirthDate: patient.birthDate,
    StudyDate: studyDate,
  });
  const { studyInstanceUid } = parseInstance(bytes);
  const { payload, contentType } = stowBody([bytes]);
  const res = await client.request({
    method: 'POST',
    url: '/api/dicomweb/studies',
    payload,
    headers: { 'content-type': contentType },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await t.db
    .select({ id: reportStatuses.id })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(and(eq(studies.groupId, groupId), eq(studies.studyInstanceUid, studyInstanceUid)));
  expect(row).toBeDefined();
  return row!.id;
}

describe('priors match Patient ID with its issuer', () => {
  it('lists only the same id under the same issuer, and warns where name or birth date differ', async () => {
    const world = await createArchiveWorld(t);
    const send = (patient: TPatient, studyDate: string) =>
      stowStudy(world.center.client, world.group.id, patient, studyDate);
    const id = `MRN-${Date.now()}`;
    const jane = { id, issuer: 'HOSP_A', name: 'DOE^JANE', birthDate: '19800101' };

    const current = await send(jane, '20261101');
    const sameNameWritten = await send({ ...jane, name: 'doe^jane^^^' }, '20261001');
    const otherIssuer = await send(
      { id, issuer: 'HOSP_B', name: 'SMITH^JOHN', birthDate: '19550505' },
      '20260901',
    );
    const noIssuer = await send({ id, issuer: null, name: 'ROE^RICHARD', birthDate: '19600606' }, '20260801');
    const otherName = await send({ ...jane, name: 'DOE^JANET' }, '20260701');
    const otherBirthDate = await send({ ...jane, birthDate: '19810101' }, '20260601');

    const res = await world.doctor.client.get(`/api/viewer/${current}/priors`);
    expect(res.statusCode, res.body).toBe(200);
    const priors = res.json<TViewerPriors>().priors;
    expect(priors.map((p) => p.id)).toEqual([sameNameWritten, otherName, otherBirthDate]);
    expect(priors.map((p) => p.differs)).toEqual([[], ['patientName'], ['patientBirthDate']]);
    expect(priors[1]).toMatchObject({ patientName: 'DOE^JANET', patientBirthDate: '19800101' });
    expect(priors[2]).toMatchObject({ patientName: 'DOE^JANE', patientBirthDate: '19810101' });
    expect(priors.map((p) => p.id)).not.toContain(otherIssuer);

    // An id with no issuer is a patient of its own: the studies that carry an issuer are not its priors.
    const fromNoIssuer = await world.doctor.client.get(`/api/viewer/${noIssuer}/priors`);
    expect(fromNoIssuer.json<TViewerPriors>().priors).toEqual([]);
    const fromOtherIssuer = await world.doctor.client.get(`/api/viewer/${otherIssuer}/priors`);
    expect(fromOtherIssuer.json<TViewerPriors>().priors).toEqual([]);
  });
});

describe('migration 0023', () => {
  it('gives a study stored before the issuer column the issuer its files carry', async () => {
    const world = await createArchiveWorld(t);
    const id = `OLD-${Date.now()}`;
    const before = await stowStudy(
      world.center.client,
      world.group.id,
      { id, issuer: 'HOSP_A', name: 'DOE^JANE', birthDate: '19800101' },
      '20200101',
    );
    const current = await stowStudy(
      world.center.client,
      world.group.id,
      { id, issuer: 'HOSP_A', name: 'DOE^JANE', birthDate: '19800101' },
      '20261101',
    );
    // As the row was before the migration: no issuer column, so ''.
    const [{ studyId } = { studyId: 0 }] = await t.db
      .select({ studyId: reportStatuses.studyId })
      .from(reportStatuses)
      .where(eq(reportStatuses.id, before));
    await t.db.update(studies).set({ issuerOfPatientId: '' }).where(eq(studies.id, studyId));
    const priorsOf = async () =>
      (await world.doctor.client.get(`/api/viewer/${current}/priors`)).json<TViewerPriors>().priors;
    expect(await priorsOf()).toEqual([]);

    const migration = readFileSync(
      new URL('../../../drizzle/0023_studies_issuer_of_patient_id.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint')[1]!;
    await t.db.execute(sql.raw(backfill));
    expect((await priorsOf()).map((p) => p.id)).toEqual([before]);
  });
});
