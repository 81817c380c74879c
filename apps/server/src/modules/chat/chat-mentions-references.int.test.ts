import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '@radflow/core';
import { chatMessages, instances, series, studyAttachments, studyEvents } from '../../db/schema.js';
import { type TestApp, type TestClient, createTestApp, createTestCenter } from '../../../test/test-app.js';
import { createTestStudy, createTwoWorlds, signedInAt } from '../../../test/worklist-test-data.js';

/**
 * Issue 23 §1: a message may @-mention the people of the study's conversation (core
 * `isChatMemberOf`: the row's center staff, its assigned doctor, the group's routers and admins) and
 * point at one of the study's attachments or images. Anything else is refused with a 400 naming the
 * field, and nothing is stored.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type TMessageData = Record<string, unknown>;
const send = (browser: TestClient, entityId: number, extra: TMessageData = {}) =>
  browser.post('/api/chat-thread/send-message', {
    messageData: { entityId, message: 'look at this', assignedTo: 'NONE', ...extra },
  });
const members = (browser: TestClient, entityId: number) =>
  browser.get(`/api/chat-thread/members?entityId=${entityId}`);

async function world() {
  const w = await createTwoWorlds(
    t,
    {
      centerUser: ['ROLE_CENTER'],
      colleague: ['ROLE_CENTER'],
      doctor: ['ROLE_DOCTOR'],
      idleDoctor: ['ROLE_DOCTOR'],
      assignor: ['ROLE_ASSIGNOR'],
      typist: ['ROLE_TYPIST'],
    },
    { outsider: ['ROLE_DOCTOR'] },
  );
  const secondCenter = await createTestCenter(t.db, { groupId: w.group.id });
  const otherCenterUser = await signedInAt(t, { group: w.group, center: secondCenter }, ['ROLE_CENTER']);
  const { row, study } = await createTestStudy(t.db, {
    groupId: w.group.id,
    centerId: w.center.id,
    row: { assignedToUserId: w.doctor.user.id, assignedAt: new Date() },
  });
  return { ...w, row, study, secondCenter, otherCenterUser };
}

async function addAttachment(reportStatusId: number) {
  const [file] = await t.db
    .insert(studyAttachments)
    .values({
      reportStatusId,
      kind: 'HISTORY',
      path: `hist${randomBytes(10).toString('hex')}`,
      fileName: 'referral.pdf',
      contentType: 'application/pdf',
      sizeBytes: 1,
      blobKey: 'attachments/none',
    })
    .returning();
  return file!;
}

async function addImage(studyId: number, frames = 1) {
  const [s] = await t.db
    .insert(series)
    .values({ studyId, seriesInstanceUid: `1.2.3.${randomBytes(4).readUInt32BE()}` })
    .returning();
  const sopInstanceUid = `1.2.3.4.${randomBytes(4).readUInt32BE()}`;
  await t.db.insert(instances).values({
    studyId,
    seriesId: s!.id,
    sopInstanceUid,
    sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
    transferSyntaxUid: '1.2.840.10008.1.2.1',
    numberOfFrames: frames,
    blobKey: 'instances/none',
    sizeBytes: 1,
    sha256: '0',
    metadata: {},
    source: 'STOW',
  });
  return { sopInstanceUid, seriesInstanceUid: s!.seriesInstanceUid };
}

describe("the study's conversation: who may be mentioned", () => {
  it("lists the row's center staff, its assigned doctor and the group's routers, not others", async () => {
    const w = await world();
    const res = await members(w.centerUser.browser, w.row.id);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json<{ members: Array<{ userId: number }> }>().members.map((m) => m.userId);
    expect(ids.sort()).toEqual([w.colleague.user.id, w.doctor.user.id, w.assignor.user.id].sort());
    expect(res.json().members).toContainEqual({
      userId: w.doctor.user.id,
      email: w.doctor.user.email,
      name: w.doctor.user.identifier,
      memberType: 'radiologist',
    });
    // The caller is not offered, nor are the idle doctor, the typist, another center's user.
    expect(ids).not.toContain(w.centerUser.user.id);
  });

  it('a mention of a member is stored and written into the CHAT_MESSAGE_SENT event', async () => {
    const w = await world();
    const res = await send(w.centerUser.browser, w.row.id, {
      message: `@${w.doctor.user.identifier} please look`,
      mentions: [w.doctor.user.id, w.assignor.user.id, w.doctor.user.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message.mentions).toEqual([
      { userId: w.doctor.user.id, name: w.doctor.user.identifier },
      { userId: w.assignor.user.id, name: w.assignor.user.identifier },
    ]);
    const [event] = await t.db
      .select()
      .from(studyEvents)
      .where(and(eq(studyEvents.reportStatusId, w.row.id), eq(studyEvents.eventType, 'CHAT_MESSAGE_SENT')));
    expect(event?.detail).toMatchObject({ mentions: [w.doctor.user.id, w.assignor.user.id] });
    const thread = await w.doctor.browser.get(
      `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
    );
    expect(thread.json().messages[0].message.mentions).toEqual(res.json().message.mentions);
  });

  it('a mention of someone outside the conversation is 400 and stores nothing', async () => {
    const w = await world();
    for (const outsider of [w.idleDoctor, w.typist, w.otherCenterUser, w.outsider, w.centerUser]) {
      const res = await send(w.centerUser.browser, w.row.id, {
        message: 'not for you',
        mentions: [w.doctor.user.id, outsider.user.id],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDescription).toContain(CHAT_MESSAGES.notMember);
    }
    expect((await send(w.centerUser.browser, w.row.id, { mentions: [2_000_000_000] })).statusCode).toBe(400);
    expect((await send(w.centerUser.browser, w.row.id, { mentions: ['x'] })).statusCode).toBe(400);
    const stored = await t.db.select().from(chatMessages).where(eq(chatMessages.body, 'not for you'));
    expect(stored).toEqual([]);
  });

  it("a doctor of another center's row (not assigned) and another group get 404 for the members", async () => {
    const w = await world();
    const theirs = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.secondCenter.id });
    expect((await members(w.centerUser.browser, theirs.row.id)).statusCode).toBe(404);
    expect((await members(w.idleDoctor.browser, w.row.id)).statusCode).toBe(404);
    expect((await members(w.outsider.browser, w.row.id)).statusCode).toBe(404);
    expect((await members(w.doctor.browser, w.row.id)).statusCode).toBe(200);
  });
});

describe('a reference to an attachment or an image of the study', () => {
  it("is checked against the study: this study's file and image pass, another study's are 400", async () => {
    const w = await world();
    const other = await createTestStudy(t.db, { groupId: w.group.id, centerId: w.center.id });
    const file = await addAttachment(w.row.id);
    const otherFile = await addAttachment(other.row.id);
    const image = await addImage(w.study.id, 3);
    const otherImage = await addImage(other.study.id);

    const withFile = await send(w.centerUser.browser, w.row.id, {
      reference: { kind: 'attachment', attachmentId: file.id },
    });
    expect(withFile.statusCode, withFile.body).toBe(200);
    expect(withFile.json().message.reference).toEqual({
      kind: 'attachment',
      attachmentId: file.id,
      attachmentKind: 'HISTORY',
      path: file.path,
      fileName: 'referral.pdf',
    });
    const withImage = await send(w.doctor.browser, w.row.id, {
      reference: { kind: 'image', sopInstanceUid: image.sopInstanceUid, frame: 3 },
    });
    expect(withImage.statusCode, withImage.body).toBe(200);
    expect(withImage.json().message.reference).toEqual({
      kind: 'image',
      sopInstanceUid: image.sopInstanceUid,
      seriesInstanceUid: image.seriesInstanceUid,
      studyInstanceUid: w.study.studyInstanceUid,
      frame: 3,
    });

    for (const reference of [
      { kind: 'attachment', attachmentId: otherFile.id },
      { kind: 'attachment', attachmentId: 2_000_000_000 },
      { kind: 'image', sopInstanceUid: otherImage.sopInstanceUid, frame: 1 },
      { kind: 'image', sopInstanceUid: image.sopInstanceUid, frame: 4 },
    ]) {
      const res = await send(w.centerUser.browser, w.row.id, { message: 'wrong file', reference });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDescription).toContain(CHAT_MESSAGES.notThisStudy);
    }
    expect(
      (await send(w.centerUser.browser, w.row.id, { reference: { kind: 'video', id: 1 } })).statusCode,
    ).toBe(400);
    expect(await t.db.select().from(chatMessages).where(eq(chatMessages.body, 'wrong file'))).toEqual([]);
    const thread = await w.centerUser.browser.get(
      `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${w.row.id}`,
    );
    expect(
      thread.json().messages.map((m: { message: { reference: unknown } }) => m.message.reference),
    ).toEqual([withFile.json().message.reference, withImage.json().message.reference]);
  });
});
