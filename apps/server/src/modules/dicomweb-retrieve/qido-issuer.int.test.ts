import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';

/*
 * One patient id, two issuers (two hospitals numbering their patients alike, issue 21 §8): the
 * priors tell them apart, and so does QIDO-RS — IssuerOfPatientID (0010,0021) is a study-level
 * matching key and is answered with every study.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TDataset = Record<string, { vr: string; Value?: unknown[] }>;

describe('QIDO-RS and the Issuer of Patient ID', () => {
  it('matches on it and answers it', async () => {
    const w = await createTwoWorlds(t, { admin: ['ROLE_ADMIN'] }, {});
    const made = async (issuerOfPatientId: string) =>
      (
        await createTestStudy(t.db, {
          groupId: w.group.id,
          centerId: w.center.id,
          patientId: 'MRN-77',
          study: { issuerOfPatientId },
        })
      ).study;
    const a = await made('HOSP-A');
    const b = await made('HOSP-B');
    const search = async (query: string) => {
      const res = await w.admin.browser.get(`/api/dicomweb/studies?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TDataset[]>();
    };
    const uids = (found: TDataset[]) => found.map((d) => d['0020000D']?.Value?.[0]).sort();

    expect(uids(await search('PatientID=MRN-77'))).toEqual([a.studyInstanceUid, b.studyInstanceUid].sort());
    const onlyA = await search('PatientID=MRN-77&IssuerOfPatientID=HOSP-A');
    expect(uids(onlyA)).toEqual([a.studyInstanceUid]);
    expect(onlyA[0]?.['00100021']).toEqual({ vr: 'LO', Value: ['HOSP-A'] });
    expect(uids(await search('00100021=HOSP-B'))).toEqual([b.studyInstanceUid]);
  });
});
