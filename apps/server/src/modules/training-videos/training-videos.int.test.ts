import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type TTrainingVideoList } from '@radflow/core';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestWorld,
  signInAt,
} from '../../../test/test-app.js';
import { MESSAGE_NO_RECORDING } from './training-videos.js';

/*
 * issue 29 §7: the FAQ's training videos as the server has them recorded
 * (scripts/record-training-videos.ts writes them into TRAINING_VIDEOS_DIR), to anyone signed in.
 */

const videosDir = mkdtempSync(join(tmpdir(), 'radflow-videos-'));
const VIEWER_BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
let t: TestApp;
beforeAll(async () => {
  writeFileSync(join(videosDir, 'viewer.webm'), VIEWER_BYTES);
  writeFileSync(join(videosDir, 'sign-in.webm'), Buffer.from('recorded'));
  // Neither a known video nor a recording: never listed.
  writeFileSync(join(videosDir, 'notes.webm'), Buffer.from('x'));
  writeFileSync(join(videosDir, 'report.webm'), Buffer.alloc(0));
  t = await createTestApp({ trainingVideosDir: videosDir });
});
afterAll(async () => {
  await t.close();
  rmSync(videosDir, { recursive: true, force: true });
});

describe('the training videos', () => {
  it('lists the recorded ones in the FAQ order, to every role; signed out is 401', async () => {
    const world = await createTestWorld(t.db);
    for (const role of ROLES) {
      const { browser } = await signInAt(t, world, [role]);
      const res = await browser.get('/api/training-videos');
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
      expect(res.json<TTrainingVideoList>().videos.map((v) => [v.id, v.bytes])).toEqual([
        ['sign-in', 8],
        ['viewer', 1000],
      ]);
    }
    expect((await new TestClient(t.app).get('/api/training-videos')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/training-videos/viewer.webm')).statusCode).toBe(401);
  });

  it('sends a recording whole, or the byte range a video element asks for', async () => {
    const { browser } = await signInAt(t, await createTestWorld(t.db), ['ROLE_DOCTOR']);
    const whole = await browser.get('/api/training-videos/viewer.webm');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(VIEWER_BYTES)).toBe(true);

    const part = await browser.get('/api/training-videos/viewer.webm', { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.rawPayload.equals(VIEWER_BYTES.subarray(100, 200))).toBe(true);

    const tail = await browser.get('/api/training-videos/viewer.webm', { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(VIEWER_BYTES.subarray(990))).toBe(true);
    const open = await browser.get('/api/training-videos/viewer.webm', { range: 'bytes=900-' });
    expect(open.headers['content-range']).toBe('bytes 900-999/1000');
  });

  it('a video not recorded is 404 with its message; a name outside the 12 is 400', async () => {
    const { browser } = await signInAt(t, await createTestWorld(t.db), ['ROLE_CENTER']);
    const missing = await browser.get('/api/training-videos/router.webm');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ errorDescription: string }>().errorDescription).toBe(MESSAGE_NO_RECORDING);
    expect((await browser.get('/api/training-videos/report.webm')).statusCode).toBe(404);
    for (const name of ['notes.webm', '..%2Fdb.webm', 'viewer.mp4']) {
      const res = await browser.get(`/api/training-videos/${name}`);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
    }
  });
});
