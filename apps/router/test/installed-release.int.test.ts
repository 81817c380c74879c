/**
 * Issue 27 §4 and §5 end to end: the router as a center installs it (the release zip built by
 * packaging/build.ts, unpacked, started on plain Node) takes a compressed study from a modality by
 * C-STORE (DCMTK's storescu) and draws its frame for a hybrid doctor the real cloud signed in. The
 * release's own bundle decodes it: its WASM codecs and its JPEG writer, not the repository's.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZRouterLoginAnswer } from '@radflow/core';
import { parseInstance } from '@radflow/dicom';
import { runStorescu } from '@radflow/dicom/test-support';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../server/test/test-app.js';
import { buildRouterRelease } from '../packaging/build.js';
import { ROUTER_DICOMWEB_ROOT } from '../src/api/dicomweb-routes.js';
import {
  removeTempDirs,
  startUnpackedRouter,
  tempDir,
  testKey,
} from '../src/release/test-release.helpers.js';
import { startTestCloud, type TestCloud } from './cloud.js';

/** A computed radiograph in JPEG 2000 (lossy, 1760 × 1760), from the dicom package's corpus. */
const J2K_FILE = fileURLToPath(
  new URL('../../../packages/dicom/test-fixtures/cr_dx/cr_rg3_jpeg2000_lossy_1760x1760.dcm', import.meta.url),
);

let cloud: TestCloud;
let main: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  const webDir = await tempDir('router-release-web');
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><html><body>app</body></html>');
  const [linux] = await buildRouterRelease({
    webDir,
    outDir: await tempDir('router-release-out'),
    platforms: ['linux'],
    privateKeyPem: testKey().privateKeyPem,
  });
  const unpacked = await tempDir('router-release-unpacked');
  for (const [name, data] of Object.entries(unzipSync(new Uint8Array(await readFile(linux!.artefact))))) {
    if (name.endsWith('/')) continue;
    await mkdir(path.dirname(path.join(unpacked, name)), { recursive: true });
    await writeFile(path.join(unpacked, name), data);
  }
  main = path.join(unpacked, 'radflow-router/app/main.js');
}, 120_000);

afterAll(async () => {
  await cloud?.close();
  await removeTempDirs();
});

describe('an installed router release', () => {
  it('takes a JPEG 2000 study by C-STORE and draws its frame for a hybrid doctor', async () => {
    const doctor = await createTestUser(cloud.t.db, {
      roles: ['ROLE_DOCTOR'],
      groupId: cloud.groupId,
      hybridModeOn: true,
    });
    // No API token: the uploads are refused, so the study stays on the router as while the link
    // is down; the sign-in goes to the cloud.
    const { child, ...ports } = await startUnpackedRouter(main, {
      ROUTER_PORT: '0',
      ROUTER_DICOM_PORT: '0',
      ROUTER_DICOM_HOST: '127.0.0.1',
      ROUTER_DATA_DIR: await tempDir('router-release-data'),
      ROUTER_SERVER_URL: `http://127.0.0.1:${cloud.port}`,
      ROUTER_ANNOUNCE_PORT: '1',
    });
    try {
      const sent = await runStorescu({
        host: '127.0.0.1',
        port: Number(ports.dicom),
        callingAet: 'CR1',
        calledAet: 'RADFLOW_ROUTER',
        files: [J2K_FILE],
        // Only the file's own SOP class, in its own syntax (JPEG 2000): README's storescu line.
        extraArgs: ['-R', '-xw'],
      });
      expect(sent.exitCode, sent.stdout + sent.stderr).toBe(0);

      const base = `http://localhost:${ports.api}`;
      const form = new FormData();
      form.set('email', doctor.email);
      form.set('password', doctor.password);
      const login = await fetch(`${base}/login`, { method: 'POST', body: form });
      expect(login.status, await login.clone().text()).toBe(200);
      const { token } = ZRouterLoginAnswer.parse(await login.json());
      const json = async (at: string) => {
        const res = await fetch(`${base}${ROUTER_DICOMWEB_ROOT}${at}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.status, `${at}: ${await res.clone().text()}`).toBe(200);
        return (await res.json()) as Array<Record<string, { Value?: string[] }>>;
      };
      const file = parseInstance(new Uint8Array(await readFile(J2K_FILE)));
      const [study, series, sop] = [file.studyInstanceUid, file.seriesInstanceUid, file.sopInstanceUid];
      // The router lists what it holds, as the offline viewer asks.
      const instances = await json(`/studies/${study}/series/${series}/instances`);
      expect(instances.map((i) => i['00080018']?.Value?.[0])).toEqual([sop]);

      const rendered = await fetch(
        `${base}${ROUTER_DICOMWEB_ROOT}/studies/${study}/series/${series}/instances/${sop}/frames/1/rendered?viewport=256,256`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      expect(rendered.status, await rendered.clone().text()).toBe(200);
      expect(rendered.headers.get('content-type')).toBe('image/jpeg');
      const jpeg = Buffer.from(await rendered.arrayBuffer());
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
      const { channels } = await sharp(jpeg).stats();
      // A radiograph, not a blank or a flat grey: its grey levels spread.
      expect(channels[0]!.max - channels[0]!.min).toBeGreaterThan(100);
      expect(channels[0]!.stdev).toBeGreaterThan(10);
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});
