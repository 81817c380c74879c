import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppError, ROUTER_SEND_OFF_MESSAGE } from '@radflow/core';
import { parseInstance } from '@radflow/dicom';
import { buildImage } from '../../../packages/dicom/src/test-builders.js';
import { startTestCloud, type TestCloud } from '../test/cloud.js';
import { CloudSettings } from './cloud-settings.js';
import { FirstStudySource, SendJobs } from './forward/index.js';
import { cloudFetcher, sendJobsPort } from './wiring.js';

/*
 * issue 29 §6: the router follows its group's removeCenterNameWhileUploading and
 * sendCapabilityAtCenter, read from the cloud (GET /api/router/settings) with the center's token.
 */

const clouds: TestCloud[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clouds.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function routerOf(flags: {
  removeCenterNameWhileUploading?: boolean;
  sendCapabilityAtCenter?: boolean;
}) {
  const cloud = await startTestCloud(flags);
  clouds.push(cloud);
  return new CloudSettings(cloudFetcher(`http://127.0.0.1:${cloud.port}`, cloud.token));
}

const image = () =>
  buildImage({
    rows: 2,
    columns: 2,
    samplesPerPixel: 1,
    photometricInterpretation: 'MONOCHROME2',
    bitsAllocated: 8,
    frames: [new Uint8Array([1, 2, 3, 4])],
    institutionName: 'Sunrise Diagnostics',
  }).bytes;

describe("the router's cloud settings", () => {
  it('removeCenterNameWhileUploading on: every uploaded image leaves with Institution Name blank', async () => {
    const settings = await routerOf({ removeCenterNameWhileUploading: true });
    const transform = await settings.uploadTransform();
    const sent = transform(image());
    expect(parseInstance(sent).index.institutionName ?? '').toBe('');
  });

  it('off: the images leave as received', async () => {
    const settings = await routerOf({});
    const original = image();
    expect((await settings.uploadTransform())(original)).toBe(original);
  });

  it('never read (no cloud): uploads wait rather than guess, sends are refused', async () => {
    const settings = new CloudSettings(cloudFetcher('http://127.0.0.1:9', 'no-token'));
    await expect(settings.uploadTransform()).rejects.toThrow(/could not be read/);
    expect(await settings.read()).toBeNull();
  });

  it('a router restarted while the cloud is down follows the last settings it read', async () => {
    // The center's PACS forwarding must keep working offline: the last answer is kept on disk.
    const dir = await mkdtemp(path.join(tmpdir(), 'router-settings-'));
    dirs.push(dir);
    const file = path.join(dir, 'cloud-settings.json');
    const cloud = await startTestCloud({
      sendCapabilityAtCenter: true,
      removeCenterNameWhileUploading: true,
    });
    clouds.push(cloud);
    const online = new CloudSettings(
      cloudFetcher(`http://127.0.0.1:${cloud.port}`, cloud.token),
      undefined,
      undefined,
      file,
    );
    expect((await online.read())?.sendCapabilityAtCenter).toBe(true);

    const restarted = new CloudSettings(
      cloudFetcher('http://127.0.0.1:9', 'no-token'),
      undefined,
      undefined,
      file,
    );
    expect(await restarted.read()).toMatchObject({
      sendCapabilityAtCenter: true,
      removeCenterNameWhileUploading: true,
    });
    const transform = await restarted.uploadTransform();
    expect(parseInstance(transform(image())).index.institutionName ?? '').toBe('');
  });

  it('sendCapabilityAtCenter decides whether send-job/run starts a send', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'router-settings-'));
    dirs.push(dir);
    const jobs = await SendJobs.open({
      dataDir: dir,
      source: new FirstStudySource([]),
      callingAet: 'RADROUTER',
    });
    const request = {
      studyId: '1.2.3.4',
      reportStatusId: 7,
      aeTitle: 'PACS',
      destination: '127.0.0.1:104',
      createdAt: '2026-11-27 10:00:00',
      userEmail: 'center@test.local',
    };
    try {
      const off = sendJobsPort(jobs, await routerOf({ sendCapabilityAtCenter: false }));
      const refused = await off.run(request).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).message).toBe(ROUTER_SEND_OFF_MESSAGE);
      expect(jobs.get(['1.2.3.4'])).toEqual([]);

      const on = sendJobsPort(jobs, await routerOf({ sendCapabilityAtCenter: true }));
      const record = await on.run(request);
      expect(record.studyInstanceId).toBe('1.2.3.4');
    } finally {
      await jobs.close();
    }
  });
});
