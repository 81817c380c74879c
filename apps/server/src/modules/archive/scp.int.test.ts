import { startTestDicomPort } from '../../../test/archive/helpers.js';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { runEchoscu, runStorescu } from '@radflow/dicom/test-support';
import { instances, reportStatuses, studies, studyEvents } from '../../db/schema.js';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { FIXTURES_DIR, LIVER, corpus, fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';

let t: TestApp;
let dicom: DicomServices;
let center: Awaited<ReturnType<typeof createTestCenter>>;
const AET = `MOD${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  center = await createTestCenter(t.db, { groupId: group.id });
  await setAeTitles(t.db, center.id, [` ${AET} `]);
  dicom = await startTestDicomPort(t);
});
afterAll(async () => {
  await dicom?.close();
  await t.close();
});

const peer = () => ({ host: '127.0.0.1', port: dicom.port, calledAet: 'RADFLOW' });

describe('C-STORE SCP with DCMTK', () => {
  it('answers C-ECHO from a known AE and rejects an unknown one or a wrong called AE', async () => {
    expect((await runEchoscu({ ...peer(), callingAet: AET })).exitCode).toBe(0);
    expect((await runEchoscu({ ...peer(), callingAet: 'STRANGER' })).exitCode).not.toBe(0);
    expect((await runEchoscu({ ...peer(), callingAet: AET.toLowerCase() })).exitCode).not.toBe(0);
    expect((await runEchoscu({ ...peer(), calledAet: 'SOMEONE', callingAet: AET })).exitCode).not.toBe(0);
  });

  it('storescu of the liver study arrives as one study with correct counts, attributed to the AE', async () => {
    // The committed profile proposes every (SOP class, syntax) of the corpus (storescu alone: uncompressed only).
    const configFile = path.join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg');
    const run = await runStorescu({ ...peer(), callingAet: AET, files: LIVER.map(fixturePath), configFile });
    expect(run.exitCode, run.stderr).toBe(0);
    const uid = corpus.find((f) => f.path === LIVER[0])!.study_instance_uid!;
    const [study] = await t.db
      .select()
      .from(studies)
      .where(and(eq(studies.groupId, center.groupId), eq(studies.studyInstanceUid, uid)));
    expect(study).toMatchObject({ centerId: center.id, seriesCount: 2, instanceCount: 4 });
    const rows = await t.db.select().from(instances).where(eq(instances.studyId, study!.id));
    expect(rows.every((r) => r.source === 'DIMSE' && r.callingAet === AET)).toBe(true);
    // The hash made while receiving is the stored file's.
    for (const row of rows) {
      const stored = await t.app.ctx.blobs.read(row.blobKey);
      expect(row.sha256, row.sopInstanceUid).toBe(createHash('sha256').update(stored).digest('hex'));
    }
    const [report] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.studyId, study!.id));
    const [event] = await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, report!.id));
    expect(event).toMatchObject({ eventType: 'STUDY_CREATED', actorLabel: AET });
  });
});
