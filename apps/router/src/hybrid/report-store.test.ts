import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGE_IN_CONFLICT, MESSAGE_SIGNED_OFF_OFFLINE, REPORTING_MESSAGES } from '@radflow/core';
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
