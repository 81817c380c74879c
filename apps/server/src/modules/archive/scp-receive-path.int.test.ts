import { startTestDicomPort } from '../../../test/archive/helpers.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStorescu } from '@radflow/dicom/test-support';
import type { DicomServices } from './dicom-services.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { FIXTURES_DIR, LIVER, fixturePath, setAeTitles } from '../../../test/archive/fixtures.js';

/*
 * Issue 22 §3: the server's DICOM port receives C-STOREs through the SCP's own receive path
 * (packages/dicom store-scp-fast-path.ts), not through dcmjs-dimse's, which parses every data set.
 */

let t: TestApp;
let dicom: DicomServices;
const AET = `FAST${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

beforeAll(async () => {
  t = await createTestApp();
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  await setAeTitles(t.db, center.id, [AET]);
  dicom = await startTestDicomPort(t);
});
afterAll(async () => {
  await dicom?.close();
  await t.close();
});

describe("the DICOM port's receive path", () => {
  it('reads every instance of a storescu send on the fast path', async () => {
    const configFile = path.join(FIXTURES_DIR, '..', 'dcmtk', 'storescu-all-syntaxes.cfg');
    const run = await runStorescu({
      host: '127.0.0.1',
      port: dicom.port,
      calledAet: 'RADFLOW',
      callingAet: AET,
      files: LIVER.map(fixturePath),
      configFile,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(dicom.receivedBy()).toEqual({ fastPath: LIVER.length, library: 0 });
  });
});
