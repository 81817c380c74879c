import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStudyListPage, TStudyListRow, TViewerContext } from '@radflow/core';
import { DEMO_PASSWORD } from './seed-demo.js';
import { seedDemoStudies } from './seed-demo-studies.js';
import { corpus } from '../../../test/archive/fixtures.js';
import { type TestApp, createTestApp, signInAs } from '../../../test/test-app.js';
import { list } from '../../../test/worklist-test-data.js';

/**
 * SEED_DEMO (issue 21 §8): the first sign-in has something to open. The demo center holds a handful
 * of studies from the repository's licensed corpus, stored through the real ingest and brought to
 * the states a user meets by the real services: new, assigned, reported, signed off, urgent.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

const signIn = (email: string) => signInAs(t, { email, password: DEMO_PASSWORD });

/** The row of the page in each state a user meets. */
function byState(page: TStudyListPage) {
  const rows = page.content;
  const one = (what: string, match: (r: TStudyListRow) => boolean) => {
    const found = rows.filter(match);
    expect(found.length, what).toBeGreaterThanOrEqual(1);
    return found[0]!;
  };
  return {
    fresh: one('new', (r) => r.status === 'CREATED' && !r.urgent && r.assignedTo === null),
    assigned: one('assigned', (r) => r.status === 'CREATED' && r.assignedTo === 'doctor@demo.local'),
    reported: one('reported', (r) => r.status === 'REPORTED'),
    signedOff: one('signed off', (r) => r.status === 'SIGNED_OFF'),
    urgent: one('urgent', (r) => r.urgent),
  };
}

describe('demo studies', () => {
  it("fill the center's and the doctor's lists in every state a user meets, and open in the viewer", async () => {
    const center = await signIn('center@demo.local');
    const centerRows = byState(await list(center, '/api/report-status/', { size: 50 }));

    const doctor = await signIn('doctor@demo.local');
    const doctorPage = await list(doctor, '/api/dicom-web/studies/', { size: 50 });
    const doctorRows = byState(doctorPage);
    expect(doctorRows.signedOff.id).toBe(centerRows.signedOff.id);

    for (const row of Object.values(doctorRows)) {
      const res = await doctor.get(`/api/viewer/${row.id}/context`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<TViewerContext>().entry).toEqual({ allowed: true });
    }
    // The images themselves: the signed-off study's series metadata through DICOMweb.
    const series = await doctor.get(`/api/dicomweb/studies/${doctorRows.signedOff.instanceId}/series`);
    expect(series.statusCode, series.body).toBe(200);
  });

  it('carry UIDs of their own, so the corpus files sent later make studies of their own', async () => {
    const center = await signIn('center@demo.local');
    const page = await list(center, '/api/report-status/', { size: 50 });
    const corpusStudies = new Set(corpus.map((f) => f.study_instance_uid));
    expect(page.content.length).toBeGreaterThanOrEqual(5);
    for (const row of page.content) expect(corpusStudies.has(row.instanceId), row.instanceId).toBe(false);
  });

  it('are seeded once: a second start stores and changes nothing', async () => {
    const center = await signIn('center@demo.local');
    const snapshot = async () =>
      (await list(center, '/api/report-status/', { size: 50 })).content
        .map((r) => ({ id: r.id, status: r.status, urgent: r.urgent, assignedTo: r.assignedTo }))
        .sort((a, b) => a.id - b.id);
    const before = await snapshot();
    expect(await seedDemoStudies(t.app.ctx)).toBe(0);
    expect(await snapshot()).toEqual(before);
  });
});
