import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TStudyDetail, TStudyListPage } from '@radflow/core';
import { reportStatuses, reportTags, studyAttachments, studyEvents } from '../../db/schema.js';
import { formBody } from '../../../test/archive/helpers.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedIn } from '../../../test/worklist-test-data.js';

/*
 * Issue 4 §2/§6: ROLE_CENTER_SHARE_ALL sees the studies of every center of its group, but only its own
 * center's are its to act on; the others are read-only for it. ROLE_CENTER_BACKUP is read-only on its
 * own center too. A refusal leaves the row, its attachments, tags and timeline as they were.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function uploadPdf(browser: TestClient, reportStatusId: number) {
  const body = formBody({}, [{ name: 'history.pdf', bytes: PDF }]);
  return browser.request({
    method: 'POST',
    url: `/api/history/upload/${reportStatusId}`,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

/**
 * Every center action the issue names, as the browser sends it. Mark deleted goes to `deleteId`
 * (default `id`): on a CREATED study the details form sends it for reporting, where a center may no
 * longer delete it.
 */
function centerActions(browser: TestClient, id: number, referringDoctorEmail: string, deleteId = id) {
  return {
    urgent: () => browser.post(`/api/report-status/urgent/${id}`),
    details: () =>
      browser.post(`/api/report-status/update-details/${id}`, {
        patientName: 'DOE^JANE',
        patientAge: '40Y',
        patientId: 'P-1',
        patientSex: 'F',
        studyName: 'CT CHEST',
        referringPhysicianName: 'Dr Who',
        history: 'Cough for two weeks',
        mobileNumber: uniqueMobile(),
      }),
    attachment: () => uploadPdf(browser, id),
    tag: () =>
      browser.post('/api/report-tag/add-tags', { reportStatusId: id, tag: 'mine', globalTag: false }),
    shareReferringDoctor: () =>
      browser.post('/api/report-status/save', { reportStatusId: id, referringDoctorEmail }),
    shareMessage: () => browser.post(`/api/report-status/send-message/${id}`, { number: uniqueMobile() }),
    delete: () => browser.post(`/api/report-status/mark-delete/${deleteId}`),
  };
}

async function statusesOf(actions: ReturnType<typeof centerActions>) {
  const result: Record<string, number> = {};
  for (const [name, call] of Object.entries(actions)) result[name] = (await call()).statusCode;
  return result;
}

/** What a refused action must leave untouched. */
async function snapshot(id: number) {
  const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
  return {
    row,
    events: await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, id)),
    attachments: await t.db.select().from(studyAttachments).where(eq(studyAttachments.reportStatusId, id)),
    tags: await t.db.select().from(reportTags).where(eq(reportTags.reportStatusId, id)),
  };
}

async function createPlace() {
  const { group, center: own } = await createTestWorld(t.db);
  const other = await createTestCenter(t.db, {
    groupId: group.id,
    name: `Other ${randomBytes(3).toString('hex')}`,
  });
  const study = async (centerId: number) =>
    (
      await createTestStudy(t.db, {
        groupId: group.id,
        centerId,
        row: { status: 'CREATED', studyName: 'CT' },
      })
    ).row;
  const referringDoctor = await signedIn(t, { roles: ['ROLE_REFERRING_DOCTOR'], groupId: group.id });
  return { group, own, other, study, referringDoctorEmail: referringDoctor.user.email };
}

const ALL_OK = {
  urgent: 200,
  details: 200,
  attachment: 200,
  tag: 200,
  shareReferringDoctor: 200,
  shareMessage: 200,
  delete: 200,
};
const ALL_FORBIDDEN = Object.fromEntries(Object.keys(ALL_OK).map((k) => [k, 403]));

describe('a share-all center user', () => {
  it("sees another center's study in the list and its details, but may not act on it", async () => {
    const place = await createPlace();
    const mine = await place.study(place.own.id);
    const theirs = await place.study(place.other.id);
    const { browser } = await signedIn(t, {
      roles: ['ROLE_CENTER_SHARE_ALL'],
      groupId: place.group.id,
      centerId: place.own.id,
    });

    const list = await browser.post('/api/report-status/', {});
    expect(list.statusCode).toBe(200);
    const rows = (list.json() as TStudyListPage).content;
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([mine.id, theirs.id].sort((a, b) => a - b));
    expect(rows.find((r) => r.id === theirs.id)?.centerId).toBe(place.other.id);

    const detail = await browser.get(`/api/report-status/id/${theirs.id}`);
    expect(detail.statusCode).toBe(200);
    expect((detail.json() as TStudyDetail).centerId).toBe(place.other.id);

    const before = await snapshot(theirs.id);
    expect(await statusesOf(centerActions(browser, theirs.id, place.referringDoctorEmail))).toEqual(
      ALL_FORBIDDEN,
    );
    expect(await snapshot(theirs.id)).toEqual(before);
  });

  it("acts on its own center's study", async () => {
    const place = await createPlace();
    const mine = await place.study(place.own.id);
    const mineToDelete = await place.study(place.own.id);
    const { browser } = await signedIn(t, {
      roles: ['ROLE_CENTER_SHARE_ALL'],
      groupId: place.group.id,
      centerId: place.own.id,
    });

    const actions = centerActions(browser, mine.id, place.referringDoctorEmail, mineToDelete.id);
    expect(await statusesOf(actions)).toEqual(ALL_OK);
    const after = await snapshot(mine.id);
    expect(after.row?.status).toBe('HISTORY_CREATED'); // the details form sent it for reporting
    expect(after.row?.urgent).toBe(true);
    expect((await snapshot(mineToDelete.id)).row?.status).toBe('DELETED');
    expect(after.attachments).toHaveLength(1);
    expect(after.tags.map((tag) => tag.tag)).toEqual(['mine']);
  });

  it("keeps a group role's permissions on other centers (share-all who is also admin)", async () => {
    const place = await createPlace();
    const theirs = await place.study(place.other.id);
    const { browser } = await signedIn(t, {
      roles: ['ROLE_CENTER_SHARE_ALL', 'ROLE_ADMIN'],
      groupId: place.group.id,
      centerId: place.own.id,
    });
    expect((await browser.post(`/api/report-status/urgent/${theirs.id}`)).statusCode).toBe(200);
    // Mark deleted is a center action (an admin only with the hide-deleted setting): refused here.
    expect((await browser.post(`/api/report-status/mark-delete/${theirs.id}`)).statusCode).toBe(403);
  });
});

describe('a center backup user', () => {
  it("sees its own center's study but does not change it", async () => {
    const place = await createPlace();
    const mine = await place.study(place.own.id);
    const { browser } = await signedIn(t, {
      roles: ['ROLE_CENTER_BACKUP'],
      groupId: place.group.id,
      centerId: place.own.id,
    });
    expect((await browser.get(`/api/report-status/id/${mine.id}`)).statusCode).toBe(200);
    const before = await snapshot(mine.id);
    expect(await statusesOf(centerActions(browser, mine.id, place.referringDoctorEmail))).toEqual(
      ALL_FORBIDDEN,
    );
    expect(await snapshot(mine.id)).toEqual(before);
  });
});
