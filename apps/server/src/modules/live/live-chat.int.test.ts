import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reportStatuses } from '../../db/schema.js';
import { type TestApp, createTestApp, createTestCenter, signInAt } from '../../../test/test-app.js';
import { LiveClient } from '../../../test/live-client.js';
import { createTestStudy, createTwoWorlds } from '../../../test/worklist-test-data.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';

/*
 * A chat message rides its CHAT_MESSAGE_SENT event (issue 23 §6: delivery p95 ≤ 250 ms): the panel
 * draws it with no refetch. The text goes only to streams whose user the thread's GET would answer:
 * the row's access rule and core canChat; others get the bare event or nothing.
 */

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('a chat message on the live stream', () => {
  it('carries the message to a user who may read the thread; not to another center, nor to a role outside the chat', async () => {
    const w = await createTwoWorlds(
      t,
      { centerUser: ['ROLE_CENTER'], doctor: ['ROLE_DOCTOR'] },
      { otherGroupAdmin: ['ROLE_ADMIN'] },
    );
    const centerB = await createTestCenter(t.db, { groupId: w.group.id });
    const otherCenter = await signInAt(t, { group: w.group, center: centerB }, ['ROLE_CENTER']);
    const referrer = await signInAt(t, w, ['ROLE_REFERRING_DOCTOR']);
    const { row } = await createTestStudy(t.db, {
      groupId: w.group.id,
      centerId: w.center.id,
      row: { assignedToUserId: w.doctor.user.id, assignedAt: new Date() },
    });
    // The referring doctor reads the study (their grant) but is not in the staff's conversation.
    await t.db
      .update(reportStatuses)
      .set({ referringDoctorUserId: referrer.user.id })
      .where(eq(reportStatuses.id, row.id));

    const streams = {
      doctor: await LiveClient.connect(baseUrl, w.doctor.browser),
      center: await LiveClient.connect(baseUrl, w.centerUser.browser),
      referrer: await LiveClient.connect(baseUrl, referrer.browser),
      otherCenter: await LiveClient.connect(baseUrl, otherCenter.browser),
      otherGroup: await LiveClient.connect(baseUrl, w.otherGroupAdmin.browser),
    };
    try {
      const sent = await w.centerUser.browser.post('/api/chat-thread/send-message', {
        messageData: {
          assignedTo: 'radiologist',
          type: 'COMMENT',
          entityId: row.id,
          message: 'Left lung base?',
        },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const messageId = (sent.json() as { messageId: number }).messageId;

      const toDoctor = JSON.parse((await streams.doctor.waitForStudy(row.id, 'CHAT_MESSAGE_SENT')).data);
      expect(toDoctor.message).toMatchObject({
        messageId,
        entityId: row.id,
        threadType: 'REPORT_CHAT',
        createdBy: w.centerUser.user.email,
        memberType: 'center',
        seen: false,
        message: { message: 'Left lung base?', assignedTo: 'radiologist' },
      });
      // What the thread's GET answers the doctor for that message, field for field.
      const thread = await w.doctor.browser.get(
        `/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${row.id}`,
      );
      expect(toDoctor.message).toEqual(thread.json().messages[0]);

      const own = JSON.parse((await streams.center.waitForStudy(row.id, 'CHAT_MESSAGE_SENT')).data);
      expect(own).toMatchObject({ byYou: true, message: { messageId, seen: true } });

      // The referring doctor sees the row change, not the text.
      const toReferrer = JSON.parse((await streams.referrer.waitForStudy(row.id, 'CHAT_MESSAGE_SENT')).data);
      expect(toReferrer).not.toHaveProperty('message');
      expect(streams.referrer.messages.map((m) => m.data).join('\n')).not.toContain('Left lung base?');

      // The others read past it (a later change of their own) and never had it.
      const later = async (groupId: number, centerId: number) => {
        const { row: other } = await createTestStudy(t.db, { groupId, centerId });
        await recordStudyEvent(t.db, {
          type: 'DETAILS_UPDATED',
          reportStatusId: other.id,
          actor: { label: 'test' },
          payload: { changed: ['test'] },
        });
        return other.id;
      };
      await streams.otherCenter.waitForStudy(await later(w.group.id, centerB.id));
      await streams.otherGroup.waitForStudy(await later(w.other.group.id, w.other.center.id));
      for (const name of ['otherCenter', 'otherGroup'] as const) {
        expect(streams[name].messages.map((m) => m.data).join('\n'), name).not.toContain('Left lung base?');
        expect(
          streams[name].studyEvents.filter((e) => e.reportStatusId === row.id),
          name,
        ).toEqual([]);
      }
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });
});
