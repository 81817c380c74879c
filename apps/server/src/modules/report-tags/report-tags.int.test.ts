import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  TStudyDetail,
  TStudyEventType,
  TStudyListPage,
  TStudyTag,
  TTagChoicesResponse,
} from '@radflow/core';
import { reportTags, studyEvents } from '../../db/schema.js';
import { savePreferenceSection } from '../preferences/preferences.js';
import { type TestApp, type TestClient, createTestApp } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let world: Awaited<ReturnType<typeof createWorld>>;
const createWorld = () =>
  createTwoWorlds(
    t,
    {
      centerUser: ['ROLE_CENTER'],
      admin: ['ROLE_ADMIN'],
      doctor: ['ROLE_DOCTOR'],
      assignor: ['ROLE_ASSIGNOR'],
      viewer: ['ROLE_VIEWER'],
    },
    { otherAdmin: ['ROLE_ADMIN'] },
  );
beforeAll(async () => {
  world = await createWorld();
});

/** A study of the world's center, assigned to the world's doctor. */
async function createReport() {
  const { row } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: world.center.id,
    modalities: ['MR'],
    row: { assignedToUserId: world.doctor.user.id },
  });
  return row;
}

const addTag = (browser: TestClient, body: Record<string, unknown>) =>
  browser.post('/api/report-tag/add-tags', body);
const tagsOf = (reportStatusId: number) =>
  t.db.select().from(reportTags).where(eq(reportTags.reportStatusId, reportStatusId));
const eventsOf = (reportStatusId: number, eventType: TStudyEventType) =>
  t.db
    .select()
    .from(studyEvents)
    .where(and(eq(studyEvents.reportStatusId, reportStatusId), eq(studyEvents.eventType, eventType)));
const listTags = async (browser: TestClient, reportStatusId: number) => {
  const res = await browser.get(`/api/report-tag/list/${reportStatusId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: TStudyTag[] }>().data;
};

describe('adding tags', () => {
  it('answers the new id, trims the text, writes a timeline event', async () => {
    const report = await createReport();
    const res = await addTag(world.doctor.browser, {
      reportStatusId: report.id,
      tag: '  follow   up ',
      globalTag: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: number }>();
    const [row] = await tagsOf(report.id);
    expect(row).toMatchObject({
      id,
      tag: 'follow up',
      globalTag: false,
      createdByUserId: world.doctor.user.id,
    });
    const [event] = await eventsOf(report.id, 'TAG_ADDED');
    expect(event).toMatchObject({
      actorUserId: world.doctor.user.id,
      detail: { tagId: id, tag: 'follow up' },
    });
  });

  it('the same tag twice on a study is 409; empty and over-long tags are 400; nothing stored', async () => {
    const report = await createReport();
    expect(
      (await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'urgent-review' })).statusCode,
    ).toBe(200);
    const dup = await addTag(world.admin.browser, {
      reportStatusId: report.id,
      tag: ' urgent-review ',
      globalTag: true,
    });
    expect(dup.statusCode).toBe(409);
    for (const tag of ['', '   ', 'x'.repeat(51)]) {
      const res = await addTag(world.doctor.browser, { reportStatusId: report.id, tag });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe('tag');
    }
    const missingId = await addTag(world.doctor.browser, { tag: 'x' });
    expect(missingId.statusCode).toBe(400);
    expect(await tagsOf(report.id)).toHaveLength(1);
    expect(await eventsOf(report.id, 'TAG_ADDED')).toHaveLength(1);
  });

  it('two requests adding the same tag at once: one 200, one 409', async () => {
    const report = await createReport();
    const results = await Promise.all([
      addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'race' }),
      addTag(world.admin.browser, { reportStatusId: report.id, tag: 'race' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await tagsOf(report.id)).toHaveLength(1);
  });

  it("another group's study is 404; a viewer is 403", async () => {
    const report = await createReport();
    expect((await addTag(world.otherAdmin.browser, { reportStatusId: report.id, tag: 'x' })).statusCode).toBe(
      404,
    );
    expect((await addTag(world.viewer.browser, { reportStatusId: report.id, tag: 'x' })).statusCode).toBe(
      403,
    );
    expect(await tagsOf(report.id)).toEqual([]);
  });
});

describe('who sees and changes a tag', () => {
  it('a local tag is seen only by its creator; a global one by the group', async () => {
    const report = await createReport();
    await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'mine', globalTag: false });
    await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'ours', globalTag: true });
    expect((await listTags(world.doctor.browser, report.id)).map((x) => x.tag)).toEqual(['mine', 'ours']);
    const seenByAdmin = await listTags(world.admin.browser, report.id);
    expect(seenByAdmin.map((x) => x.tag)).toEqual(['ours']);
    expect(seenByAdmin[0]?.createdBy).toBe(world.doctor.user.email);

    const choices = (
      await world.centerUser.browser.get('/api/report-tag/choices')
    ).json<TTagChoicesResponse>();
    expect(choices.tags).toContainEqual({ tag: 'ours', globalTag: true });
    expect(choices.tags.map((c) => c.tag)).not.toContain('mine');
    const own = (await world.doctor.browser.get('/api/report-tag/choices')).json<TTagChoicesResponse>();
    expect(own.tags).toContainEqual({ tag: 'mine', globalTag: false });
  });

  it('the study detail, the list rows and the list tag filter show a local tag only to its creator', async () => {
    const report = await createReport();
    const local = `private-${report.id}`;
    await addTag(world.doctor.browser, { reportStatusId: report.id, tag: local, globalTag: false });
    await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'shared', globalTag: true });

    const detailTags = async (browser: TestClient) =>
      (await browser.get(`/api/report-status/id/${report.id}`)).json<TStudyDetail>().tags.map((x) => x.tag);
    expect(await detailTags(world.doctor.browser)).toEqual([local, 'shared']);
    expect(await detailTags(world.admin.browser)).toEqual(['shared']);

    const listed = async (browser: TestClient, filters: Record<string, string>) =>
      (await browser.post('/api/dicom-web/studies/', { page: 0, size: 20, filters })).json<TStudyListPage>()
        .content;
    const [rowForAdmin] = await listed(world.admin.browser, { id: String(report.id) });
    expect(rowForAdmin?.tags.map((x) => x.tag)).toEqual(['shared']);
    const [rowForDoctor] = await listed(world.doctor.browser, { id: String(report.id) });
    expect(rowForDoctor?.tags.map((x) => x.tag)).toEqual([local, 'shared']);
    expect(await listed(world.admin.browser, { tags: local })).toEqual([]);
    expect((await listed(world.doctor.browser, { tags: local })).map((r) => r.id)).toEqual([report.id]);
  });

  it('the creator toggles local ↔ global; an admin may change a global tag; others get 403', async () => {
    const report = await createReport();
    const { id } = (
      await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'teaching', globalTag: false })
    ).json<{ id: number }>();
    // Not visible to the assignor while local: 404, not 403.
    expect(
      (await world.assignor.browser.post('/api/report-tag/update', { id, globalTag: true })).statusCode,
    ).toBe(404);

    const toGlobal = await world.doctor.browser.post('/api/report-tag/update', { id, globalTag: true });
    expect(toGlobal.statusCode, toGlobal.body).toBe(200);
    const refused = await world.assignor.browser.post('/api/report-tag/update', { id, globalTag: false });
    expect(refused.statusCode).toBe(403);
    expect((await tagsOf(report.id))[0]?.globalTag).toBe(true);

    const byAdmin = await world.admin.browser.post('/api/report-tag/update', { id, globalTag: false });
    expect(byAdmin.statusCode).toBe(200);
    expect((await tagsOf(report.id))[0]?.globalTag).toBe(false);
    expect(await eventsOf(report.id, 'TAG_UPDATED')).toHaveLength(2);
    expect(
      (await world.admin.browser.post('/api/report-tag/update', { id, globalTag: 'yes' })).statusCode,
    ).toBe(400);
  });

  it('delete: 403 for a non-creator, 404 for another group, 200 for the creator with an event', async () => {
    const report = await createReport();
    const { id } = (
      await addTag(world.doctor.browser, { reportStatusId: report.id, tag: 'recall', globalTag: true })
    ).json<{ id: number }>();
    const del = (browser: TestClient) =>
      browser.request({ method: 'DELETE', url: '/api/report-tag/delete', payload: { id } });
    expect((await del(world.assignor.browser)).statusCode).toBe(403);
    expect((await del(world.otherAdmin.browser)).statusCode).toBe(404);
    expect((await del(world.viewer.browser)).statusCode).toBe(403);
    expect(await tagsOf(report.id)).toHaveLength(1);
    const ok = await del(world.doctor.browser);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await tagsOf(report.id)).toEqual([]);
    expect(await eventsOf(report.id, 'TAG_DELETED')).toHaveLength(1);
    expect((await del(world.doctor.browser)).statusCode).toBe(404);
  });

  it("the user's saved TAGS preference is offered as local choices", async () => {
    await savePreferenceSection(t.db, {
      ownerId: world.doctor.user.id,
      section: 'TAGS',
      value: { tags: ['From Preference'] },
      updatedBy: 'test',
    });
    const own = (await world.doctor.browser.get('/api/report-tag/choices')).json<TTagChoicesResponse>();
    expect(own.tags).toContainEqual({ tag: 'From Preference', globalTag: false });
  });
});
