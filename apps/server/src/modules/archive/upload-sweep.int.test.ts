import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reportStatuses } from '../../db/schema.js';
import { ingestInstance } from './ingest.js';
import { markCompletedUploads } from './upload-sweep.js';
import { type TestApp, createTestApp, createTestCenter, createTestGroup } from '../../../test/test-app.js';
import { LIVER, readFixture } from '../../../test/archive/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('upload-complete sweep', () => {
  it('marks a study uploaded once it has been quiet, and again after more instances arrive', async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const ingest = (file: string) =>
      ingestInstance(t.app.ctx, { bytes: readFixture(file) }, { centerId: center.id, source: 'STOW' });
    const first = await ingest(LIVER[0]!);
    if (!first.ok) throw new Error(first.reason);
    const report = async () =>
      (await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, first.reportStatusId)))[0]!;

    await markCompletedUploads(t.app.ctx, 60);
    expect((await report()).lastUploadCompletedAt).toBeNull();

    t.clock.advance(61);
    expect(await markCompletedUploads(t.app.ctx, 60)).toBeGreaterThanOrEqual(1);
    const done = await report();
    expect(done.firstUploadCompletedAt).not.toBeNull();
    expect(done.lastUploadCompletedAt?.getTime()).toBe(done.firstUploadCompletedAt?.getTime());
    // Nothing new: a second sweep changes nothing.
    await markCompletedUploads(t.app.ctx, 60);
    expect((await report()).lastUploadCompletedAt?.getTime()).toBe(done.lastUploadCompletedAt?.getTime());

    // More instances later: not complete again until quiet; then last moves, first stays.
    await ingest(LIVER[1]!);
    await markCompletedUploads(t.app.ctx, 60);
    expect((await report()).lastUploadCompletedAt?.getTime()).toBe(done.lastUploadCompletedAt?.getTime());
    t.clock.advance(61);
    await markCompletedUploads(t.app.ctx, 60);
    const again = await report();
    expect(again.lastUploadCompletedAt!.getTime()).toBeGreaterThan(done.lastUploadCompletedAt!.getTime());
    expect(again.firstUploadCompletedAt?.getTime()).toBe(done.firstUploadCompletedAt?.getTime());
  });

  it('a windowed sweep looks only at studies whose last instance arrived since its bound; a full one at all', async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const stored = await ingestInstance(
      t.app.ctx,
      { bytes: readFixture(LIVER[2]!) },
      { centerId: center.id, source: 'STOW' },
    );
    if (!stored.ok) throw new Error(stored.reason);
    const completedAt = async () =>
      (await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, stored.reportStatusId)))[0]!
        .lastUploadCompletedAt;
    t.clock.advance(61);

    // The instance arrived before the window: a windowed sweep leaves it (the hourly full one catches it).
    await markCompletedUploads(t.app.ctx, 60, new Date(t.app.ctx.now().getTime() - 30_000));
    expect(await completedAt()).toBeNull();
    // A window that starts before it marks it.
    await markCompletedUploads(t.app.ctx, 60, new Date(t.app.ctx.now().getTime() - 3_600_000));
    expect(await completedAt()).not.toBeNull();
  });
});
