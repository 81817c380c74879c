import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { draftJournalPath, OfflineDraftStore } from './draft-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'router-drafts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the offline drafts store', () => {
  it("keeps each doctor's newest text per study across a restart, compacting the auto-saves", async () => {
    const store = await OfflineDraftStore.open(dir);
    for (let i = 1; i <= 300; i++) {
      await store.save('1.2.3', 'dr@radflow.example', { name: 'CT', content: `<p>${i}</p>`, baseVersion: 2 });
    }
    await store.save('1.2.3', 'other@radflow.example', {
      name: 'CT',
      content: '<p>mine</p>',
      baseVersion: null,
    });
    await store.save('1.2.4', 'dr@radflow.example', {
      name: 'XR',
      content: '<p>gone</p>',
      baseVersion: null,
    });
    await store.remove('1.2.4', 'DR@radflow.example');
    await store.close();
    // 303 records of ~150 bytes written; compaction at every 128 left less than half of them.
    expect((await stat(draftJournalPath(dir))).size).toBeLessThan(25_000);

    const reopened = await OfflineDraftStore.open(dir);
    expect(reopened.draft('1.2.3', 'dr@radflow.example')).toMatchObject({
      content: '<p>300</p>',
      baseVersion: 2,
    });
    expect(reopened.draft('1.2.3', 'other@radflow.example')).toMatchObject({ content: '<p>mine</p>' });
    expect(reopened.draft('1.2.4', 'dr@radflow.example')).toBeNull();
    await reopened.close();
  });
});
