import { mkdtemp, readdir, rm, writeFile, appendFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStudy } from '../../test/study-builder.js';
import { encodeRecord, parseJournal } from './journal.js';
import { InstanceQueue, keyOfSopInstanceUid } from './queue.js';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'router-queue-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the journal', () => {
  it('cuts off a torn last record and keeps every whole one', () => {
    const whole = Buffer.concat([encodeRecord({ op: 'Q', n: 1 }), encodeRecord({ op: 'Q', n: 2 })]);
    const torn = encodeRecord({ op: 'Q', n: 3 }).subarray(0, 20);
    const read = parseJournal<{ n: number }>(Buffer.concat([whole, torn]));
    expect(read.records.map((r) => r.n)).toEqual([1, 2]);
    expect(read.validLength).toBe(whole.length);
    expect(read.tornTail).toBe(true);
  });

  it('treats a last line whose checksum fails as torn, a bad middle line as skipped', () => {
    const a = encodeRecord({ n: 1 });
    const bad = Buffer.from('00000000 {"n":9}\n');
    const c = encodeRecord({ n: 3 });
    expect(parseJournal<{ n: number }>(Buffer.concat([a, bad, c])).records.map((r) => r.n)).toEqual([1, 3]);
    const tail = parseJournal<{ n: number }>(Buffer.concat([a, bad]));
    expect(tail.records.map((r) => r.n)).toEqual([1]);
    expect(tail.tornTail).toBe(true);
  });
});

describe('the durable queue', () => {
  it('lists a pending case with its instances and survives a torn journal record on reopen', async () => {
    const dir = await dataDir();
    const study = buildStudy({ count: 3 });
    const queue = await InstanceQueue.open({ dataDir: dir });
    for (const instance of study.instances) {
      expect((await queue.enqueueFile(instance.bytes)).status).toBe('queued');
    }
    expect((await queue.enqueueFile(study.instances[0]!.bytes)).status).toBe('duplicate');
    const batch = queue.takeBatch(1 << 30, 100);
    expect(batch).toHaveLength(3);
    await queue.markSent([batch[0]!.key]);
    const [pending] = queue.pendingCases();
    expect(pending).toMatchObject({ studyInstanceUid: study.studyInstanceUid, total: 3, sent: 1 });
    await queue.close();

    // A crash in the middle of the next record's write: half a line at the end of the journal.
    const journal = join(dir, 'spool', 'journal.log');
    await appendFile(journal, encodeRecord({ op: 'S', key: batch[1]!.key, at: 'x' }).subarray(0, 15));
    const reopened = await InstanceQueue.open({ dataDir: dir });
    expect(reopened.studyProgress(study.studyInstanceUid)).toMatchObject({
      total: 3,
      sent: 1,
      state: 'QUEUED',
    });
    expect((await readFile(journal)).at(-1)).toBe(0x0a);
    await reopened.close();
  });

  it("keeps the patient's sex and age, and reads a journal written before it kept them", async () => {
    const dir = await dataDir();
    const study = buildStudy({ count: 2, patientSex: 'M', patientAge: '007M' });
    const queue = await InstanceQueue.open({ dataDir: dir });
    for (const instance of study.instances) await queue.enqueueFile(instance.bytes);
    await queue.close();
    const reopened = await InstanceQueue.open({ dataDir: dir });
    expect(reopened.pendingCases()).toMatchObject([{ patientSex: 'M', patientAge: '007M' }]);
    await reopened.close();

    // The same journal as an older router wrote it: queue records without sex and age.
    const journal = join(dir, 'spool', 'journal.log');
    const { records } = parseJournal<Record<string, unknown>>(await readFile(journal));
    const older = records.map(({ sex: _sex, age: _age, ...rest }) => encodeRecord(rest));
    await writeFile(journal, Buffer.concat(older));
    const upgraded = await InstanceQueue.open({ dataDir: dir });
    expect(upgraded.pendingCases()).toMatchObject([
      { studyInstanceUid: study.studyInstanceUid, total: 2, patientSex: null, patientAge: null },
    ]);
    await upgraded.close();
  });

  it('adopts an instance file written before its record, drops half-written temp files', async () => {
    const dir = await dataDir();
    const study = buildStudy({ count: 1 });
    const queue = await InstanceQueue.open({ dataDir: dir });
    await queue.close();
    const key = keyOfSopInstanceUid(study.instances[0]!.sopInstanceUid);
    await writeFile(join(dir, 'spool', 'objects', `${key}.dcm`), study.instances[0]!.bytes);
    await writeFile(join(dir, 'spool', 'tmp', 'half'), Buffer.from('half'));
    const reopened = await InstanceQueue.open({ dataDir: dir });
    expect(reopened.pendingCases()[0]).toMatchObject({ total: 1, sent: 0 });
    expect(await readdir(join(dir, 'spool', 'tmp'))).toEqual([]);
    await reopened.close();
  });

  it('refuses past the quota, raises the alarm first, and never deletes an unsent study', async () => {
    const dir = await dataDir();
    const study = buildStudy({ count: 4 });
    const size = study.instances[0]!.bytes.length;
    const queue = await InstanceQueue.open({ dataDir: dir, quotaBytes: size * 3, alarmRatio: 0.6 });
    const alarms: unknown[] = [];
    queue.on('disk-alarm', (usage) => alarms.push(usage));
    for (const instance of study.instances.slice(0, 3)) await queue.enqueueFile(instance.bytes);
    expect(alarms).toHaveLength(1);
    expect(await queue.enqueueFile(study.instances[3]!.bytes)).toMatchObject({
      status: 'refused',
      quotaFull: true,
    });
    expect(await queue.deleteUploadedStudy(study.studyInstanceUid)).toBe('not-uploaded');
    await queue.markSent(queue.takeBatch(1 << 30, 100).map((f) => f.key));
    expect(await queue.deleteUploadedStudy(study.studyInstanceUid)).toBe('deleted');
    expect(queue.diskUsage().usedBytes).toBe(0);
    await queue.close();
  });

  it('takes urgent studies first', async () => {
    const dir = await dataDir();
    const routine = buildStudy({ count: 1 });
    const urgent = buildStudy({ count: 1, priority: 'STAT' });
    const queue = await InstanceQueue.open({ dataDir: dir });
    await queue.enqueueFile(routine.instances[0]!.bytes);
    await queue.enqueueFile(urgent.instances[0]!.bytes);
    expect(queue.takeBatch(1 << 30, 100)[0]!.studyInstanceUid).toBe(urgent.studyInstanceUid);
    await queue.close();
  });
});
