import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MESSAGE_IN_CONFLICT,
  MESSAGE_NOT_IN_CONFLICT,
  MESSAGE_SIGNED_OFF_OFFLINE,
  REPORTING_MESSAGES,
} from '@radflow/core';
import { encodeRecord } from '../queue/journal.js';
import { OfflineReportStore, reportJournalPath } from './report-store.js';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'router-hybrid-'));
  dirs.push(dir);
  return dir;
}
const stores: OfflineReportStore[] = [];
async function openStore(dir: string): Promise<OfflineReportStore> {
  const store = await OfflineReportStore.open(dir);
  stores.push(store);
  return store;
}
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const author = { email: 'hybrid@center.test', identifier: 'Dr Hybrid' };
const UID = '1.2.826.0.1.1';
const save = (extra: Partial<Parameters<OfflineReportStore['save']>[0]> = {}) => ({
  studyInstanceUid: UID,
  author,
  name: 'CT Head',
  content: '<p>No bleed.</p>',
  signOff: false,
  baseLocalVersion: null,
  ...extra,
});

describe('the offline report store (issue 27 §4)', () => {
  it('keeps every offline save as a version, across a restart', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    expect((await store.save(save())).localVersion).toBe(1);
    expect((await store.save(save({ content: '<p>Second.</p>', baseLocalVersion: 1 }))).localVersion).toBe(2);
    await store.close();

    const again = await openStore(dir);
    expect(again.report(UID)).toMatchObject({
      content: '<p>Second.</p>',
      localVersion: 2,
      state: 'PENDING',
      authorEmail: author.email,
      authorName: author.identifier,
    });
    expect(again.nextToSync()).toMatchObject({ write: { content: '<p>No bleed.</p>' }, baseVersion: null });
  });

  it('refuses a save from an older router version, as the cloud does (two tabs offline)', async () => {
    const store = await openStore(await dataDir());
    await store.save(save());
    await expect(store.save(save({ content: '<p>Other tab.</p>' }))).rejects.toMatchObject({
      kind: 'CONFLICT',
      message: REPORTING_MESSAGES.savedElsewhere,
    });
    expect(store.report(UID)?.content).toBe('<p>No bleed.</p>');
  });

  it('sends the versions of a study in order, each from the cloud version the last one got', async () => {
    const store = await openStore(await dataDir());
    await store.save(save());
    await store.save(save({ content: '<p>Two.</p>', baseLocalVersion: 1, signOff: true }));
    const first = store.nextToSync();
    expect(first).toMatchObject({ baseVersion: null, write: { localVersion: 1 } });
    await store.markSynced(first!.write.id, { reportStatusId: 41, savedVersion: 3 });
    const second = store.nextToSync();
    expect(second).toMatchObject({ baseVersion: 3, write: { localVersion: 2, signOff: true } });
    await store.markSynced(second!.write.id, { reportStatusId: 41, savedVersion: 4 });
    expect(store.nextToSync()).toBeNull();
    expect(store.report(UID)).toMatchObject({
      state: 'SYNCED',
      reportStatusId: 41,
      cloudVersion: 4,
      signedOff: true,
    });
  });

  it('holds a study the cloud refused, keeps its text, and writes no more over it', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    await store.save(save());
    await store.save(save({ content: '<p>Two.</p>', baseLocalVersion: 1 }));
    await store.markConflict(UID, 'This report was saved elsewhere');
    expect(store.nextToSync()).toBeNull();
    await expect(store.save(save({ baseLocalVersion: 2 }))).rejects.toMatchObject({
      kind: 'CONFLICT',
      message: MESSAGE_IN_CONFLICT,
    });
    await store.close();
    const again = await openStore(dir);
    expect(again.report(UID)).toMatchObject({
      state: 'CONFLICT',
      reason: 'This report was saved elsewhere',
      content: '<p>Two.</p>',
    });
  });

  it('refuses to change a report signed off on the router', async () => {
    const store = await openStore(await dataDir());
    await store.save(save({ signOff: true }));
    await expect(store.save(save({ baseLocalVersion: 1 }))).rejects.toMatchObject({
      message: MESSAGE_SIGNED_OFF_OFFLINE,
    });
  });

  it('recovers from a crash mid-append: the torn save is cut off, every whole one kept', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    await store.save(save());
    await store.close();
    const torn = encodeRecord({ t: 'W', id: 'x' }).subarray(0, 15);
    await appendFile(reportJournalPath(dir), torn);

    const again = await openStore(dir);
    expect(again.report(UID)?.localVersion).toBe(1);
    expect((await again.save(save({ baseLocalVersion: 1, content: '<p>After.</p>' }))).localVersion).toBe(2);
    const text = await readFile(reportJournalPath(dir), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('skips studies the sync defers (not in the cloud yet) and goes on with the others', async () => {
    const store = await openStore(await dataDir());
    await store.save(save());
    await store.save(save({ studyInstanceUid: '1.2.826.0.1.2' }));
    expect(store.nextToSync(new Set([UID]))?.write.studyInstanceUid).toBe('1.2.826.0.1.2');
  });

  it('ignores a record it does not know (a newer router wrote it) instead of failing to start', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    await store.close();
    await writeFile(reportJournalPath(dir), encodeRecord({ t: 'Z', what: 'future' }));
    const again = await openStore(dir);
    expect(again.list()).toEqual([]);
  });
});

describe('compacting the offline reports journal (issue 27 §4)', () => {
  const OTHER = '1.2.826.0.1.2';
  const lines = async (dir: string) =>
    (await readFile(reportJournalPath(dir), 'utf8')).split('\n').filter(Boolean).length;

  /** Three studies: all synced (3 versions), partly synced (2 of 3), in conflict after 2 saves. */
  async function history(store: OfflineReportStore) {
    for (const uid of [UID, OTHER, '1.2.826.0.1.3']) {
      await store.save(save({ studyInstanceUid: uid, content: '<p>v1</p>' }));
      await store.save(save({ studyInstanceUid: uid, content: '<p>v2</p>', baseLocalVersion: 1 }));
    }
    await store.save(save({ content: '<p>v3</p>', baseLocalVersion: 2 }));
    await store.save(save({ studyInstanceUid: OTHER, content: '<p>v3</p>', baseLocalVersion: 2 }));
    let cloudVersion = 0;
    const syncAll = async (uid: string, count: number) => {
      for (let i = 0; i < count; i++) {
        const next = store.nextToSync(new Set([UID, OTHER, '1.2.826.0.1.3'].filter((u) => u !== uid)))!;
        await store.markSynced(next.write.id, { reportStatusId: 7, savedVersion: ++cloudVersion });
      }
    };
    await syncAll(UID, 3);
    await syncAll(OTHER, 2);
    await store.markConflict('1.2.826.0.1.3', 'The study was taken by another doctor in the cloud meanwhile');
  }

  const stateOf = (store: OfflineReportStore) => ({
    list: store.list(),
    next: store.nextToSync(),
    afterOther: store.nextToSync(new Set([OTHER])),
  });

  it('drops synced and superseded versions, and reads back the same reports and the same next send', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    await history(store);
    const before = stateOf(store);
    const linesBefore = await lines(dir);
    await store.compact();
    // Kept: UID's newest (W+S); OTHER's last synced (W+S) and its unsent v3 (W); the conflict's newest (W) and C.
    expect(await lines(dir)).toBe(7);
    expect(linesBefore).toBeGreaterThan(7);
    expect(stateOf(store)).toEqual(before);
    await store.close();
    const again = await openStore(dir);
    expect(stateOf(again)).toEqual(before);
    expect(before.next).toMatchObject({
      write: { studyInstanceUid: OTHER, content: '<p>v3</p>' },
      baseVersion: 5,
    });
    // The version chain goes on after compaction.
    expect((await again.save(save({ content: '<p>v4</p>', baseLocalVersion: 3 }))).localVersion).toBe(4);
  });

  it('keeps a save made while the journal is being rewritten', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    await history(store);
    const [, saved] = await Promise.all([
      store.compact(),
      store.save(save({ content: '<p>during</p>', baseLocalVersion: 3 })),
    ]);
    expect(saved.localVersion).toBe(4);
    await store.close();
    expect((await openStore(dir)).report(UID)).toMatchObject({ content: '<p>during</p>', state: 'PENDING' });
  });

  it('survives a crash between the steps: before the rename the old journal stands, after it the new one', async () => {
    for (const step of ['temp-written', 'renamed'] as const) {
      const dir = await dataDir();
      const store = await openStore(dir);
      await history(store);
      const before = stateOf(store);
      // The process dies at this step: nothing after it runs, the store is never closed.
      await expect(
        store.compact({
          crashAt: (at) => {
            if (at === step) throw new Error(`crash at ${at}`);
          },
        }),
      ).rejects.toThrow(`crash at ${step}`);
      const again = await openStore(dir);
      expect(stateOf(again), step).toEqual(before);
      await expect(readFile(`${reportJournalPath(dir)}.compact`)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('compacts by itself once the journal is mostly dead records', async () => {
    const dir = await dataDir();
    const store = await openStore(dir);
    let cloudVersion = 0;
    for (let v = 1; v <= 60; v++) {
      await store.save(save({ content: `<p>v${v}</p>`, baseLocalVersion: v === 1 ? null : v - 1 }));
      await store.markSynced(store.nextToSync()!.write.id, {
        reportStatusId: 7,
        savedVersion: ++cloudVersion,
      });
    }
    expect(await lines(dir)).toBeLessThan(120);
    expect(store.report(UID)).toMatchObject({ localVersion: 60, state: 'SYNCED', cloudVersion: 60 });
  });
});

describe('resolving a conflict on the router (issue 27 §4)', () => {
  async function inConflict(dir: string) {
    const store = await openStore(dir);
    await store.save(save({ content: '<p>Mine.</p>' }));
    await store.markConflict(UID, 'This report was saved elsewhere');
    return store;
  }
  const cloudAnswer = {
    outcome: 'SAVED' as const,
    reportStatusId: 7,
    name: 'CT Head',
    content: '<p>The cloud’s.</p>',
    savedVersion: 3,
    signedOff: false,
  };

  it('queues a choice durably, sends it after a restart, then shows the cloud’s text and keeps mine', async () => {
    const dir = await dataDir();
    const store = await inConflict(dir);
    await store.resolve(UID, 'KEEP_CLOUD', author);
    expect(store.report(UID)).toMatchObject({
      state: 'CONFLICT',
      resolution: { action: 'KEEP_CLOUD', state: 'QUEUED' },
    });
    await expect(store.resolve(UID, 'ADDENDUM', author)).rejects.toMatchObject({
      kind: 'CONFLICT',
      message: MESSAGE_NOT_IN_CONFLICT,
    });
    await store.close();

    const again = await openStore(dir);
    const queued = again.nextResolution();
    expect(queued).toMatchObject({ action: 'KEEP_CLOUD', content: '<p>Mine.</p>', studyInstanceUid: UID });
    await again.markResolved(queued!.id, cloudAnswer);
    expect(again.nextResolution()).toBeNull();
    expect(again.report(UID)).toMatchObject({
      state: 'SYNCED',
      content: '<p>The cloud’s.</p>',
      reason: null,
      reportStatusId: 7,
      cloudVersion: 3,
      localVersion: 2,
      resolution: { action: 'KEEP_CLOUD', state: 'DONE' },
    });
    // Nothing to send: the copy is the cloud's. A next save starts from the cloud's version.
    expect(again.nextToSync()).toBeNull();
    await again.save(save({ content: '<p>After.</p>', baseLocalVersion: 2 }));
    expect(again.nextToSync()).toMatchObject({ baseVersion: 3 });
    await again.close();

    // The offline text stays in the journal as history, through a compaction too.
    const third = await openStore(dir);
    await third.compact();
    expect(third.history(UID).map((w) => w.content)).toEqual(['<p>Mine.</p>']);
    expect(await readFile(reportJournalPath(dir), 'utf8')).toContain('<p>Mine.</p>');
  });

  it('lists the versions it keeps: set aside, from the cloud, in the cloud and waiting, across a restart', async () => {
    const dir = await dataDir();
    const store = await inConflict(dir);
    expect(store.versions(UID).map((v) => [v.localVersion, v.state])).toEqual([[1, 'WAITING']]);
    await store.resolve(UID, 'KEEP_CLOUD', author);
    await store.markResolved(store.nextResolution()!.id, cloudAnswer);
    await store.save(save({ content: '<p>After.</p>', baseLocalVersion: 2, signOff: true }));
    const expected = [
      { localVersion: 1, state: 'SET_ASIDE', content: '<p>Mine.</p>', cloudVersion: null },
      { localVersion: 2, state: 'FROM_CLOUD', content: '<p>The cloud’s.</p>', cloudVersion: 3 },
      { localVersion: 3, state: 'WAITING', content: '<p>After.</p>', signedOff: true, cloudVersion: null },
    ];
    expect(store.versions(UID)).toMatchObject(expected);
    expect(store.versions(UID)[2]).toMatchObject({
      authorEmail: author.email,
      authorName: author.identifier,
    });
    await store.close();

    const again = await openStore(dir);
    expect(again.versions(UID)).toMatchObject(expected);
    const next = again.nextToSync()!;
    await again.markSynced(next.write.id, { reportStatusId: 7, savedVersion: 4 });
    expect(again.versions(UID).at(-1)).toMatchObject({ state: 'IN_CLOUD', cloudVersion: 4 });
    expect(again.versions('1.2.999')).toEqual([]);
  });

  it('keeps the conflict, with the cloud’s reason, when the cloud refuses the addendum', async () => {
    const dir = await dataDir();
    const store = await inConflict(dir);
    await store.resolve(UID, 'ADDENDUM', author);
    await store.markResolutionRefused(store.nextResolution()!.id, REPORTING_MESSAGES.addendumNotYours);
    expect(store.report(UID)).toMatchObject({
      state: 'CONFLICT',
      reason: REPORTING_MESSAGES.addendumNotYours,
      content: '<p>Mine.</p>',
      resolution: null,
    });
    // The other choice is still open.
    await store.resolve(UID, 'KEEP_CLOUD', author);
    expect(store.nextResolution()).toMatchObject({ action: 'KEEP_CLOUD' });
  });

  it('refuses to resolve a study that is not in conflict', async () => {
    const store = await openStore(await dataDir());
    await store.save(save());
    await expect(store.resolve(UID, 'KEEP_CLOUD', author)).rejects.toMatchObject({
      message: MESSAGE_NOT_IN_CONFLICT,
    });
  });
});
