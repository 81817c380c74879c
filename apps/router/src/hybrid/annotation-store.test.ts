import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFFLINE_ANNOTATIONS_PER_STUDY_MAX, type TViewerAnnotationInput } from '@radflow/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotationJournalPath, OfflineAnnotationStore } from './annotation-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'router-annotations-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const drawn = (annotationUid: string, x: number): TViewerAnnotationInput => ({
  annotationUid,
  toolName: 'Length',
  seriesInstanceUid: '1.2.3.1',
  sopInstanceUid: '1.2.3.1.1',
  frameNumber: 1,
  data: {
    handles: {
      points: [
        [0, 0, 0],
        [x, 0, 0],
      ],
    },
  },
});

describe('the offline measurements store', () => {
  it('compacts a journal of many moves to what is kept, and reads it back the same', async () => {
    let clock = Date.parse('2026-11-29T10:00:00.000Z');
    const now = () => new Date((clock += 1000));
    const store = await OfflineAnnotationStore.open(dir, now);
    for (let x = 1; x <= 600; x++) await store.save('1.2.3', drawn('moved', x), 'dr@radflow.example');
    await store.save('1.2.3', drawn('kept', 5), 'dr@radflow.example');
    await store.save('1.2.3', drawn('gone', 5), 'dr@radflow.example');
    await store.remove('1.2.3', 'gone', 'dr@radflow.example');
    const before = store.list('1.2.3');
    await store.close();
    // 603 records of ~300 bytes written (~180 KB); compacted at every 256, less than half is left.
    expect((await stat(annotationJournalPath(dir))).size).toBeLessThan(90_000);

    const reopened = await OfflineAnnotationStore.open(dir);
    expect(reopened.list('1.2.3')).toEqual(before);
    expect(before.annotations).toMatchObject([
      { annotationUid: 'moved', data: drawn('moved', 600).data, createdAt: '2026-11-29T10:00:01.000Z' },
      { annotationUid: 'kept' },
    ]);
    await reopened.close();
  });

  it(`keeps at most ${OFFLINE_ANNOTATIONS_PER_STUDY_MAX} per study; a change of one kept still goes`, async () => {
    const store = await OfflineAnnotationStore.open(dir);
    for (let i = 0; i < OFFLINE_ANNOTATIONS_PER_STUDY_MAX; i++) {
      await store.save('1.2.3', drawn(`a${i}`, 1), 'dr@radflow.example');
    }
    await expect(store.save('1.2.3', drawn('one-more', 1), 'dr@radflow.example')).rejects.toMatchObject({
      kind: 'CONFLICT',
    });
    await store.save('1.2.3', drawn('a0', 2), 'dr@radflow.example');
    await store.save('1.2.4', drawn('other-study', 1), 'dr@radflow.example');
    expect(store.list('1.2.3').annotations).toHaveLength(OFFLINE_ANNOTATIONS_PER_STUDY_MAX);
    await store.close();
  });
});
