import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  CUSTOMER_PAGE_MESSAGES as M,
  type TCenterPatients,
  type TCustomerReports,
  type TReportMessage,
  ROLES,
  menuForUser,
  defaultMenuContext,
} from '@radflow/core';
import { messageOutbox, reportStatuses, studyEvents } from '../../db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestUser,
  readOtpFromOutbox,
  setGroupPreference,
  uniqueMobile,
} from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, signedIn, signedInAt } from '../../../test/worklist-test-data.js';

/*
 * Issue 26 §4, spec-core §2 "CENTER_CUSTOMER: Manage patient for center /manage-patient (unless
 * doNotSendWhatsappMessage)": the center customer's patients with their mobile, sending the
 * signed-off report to the patient (SMS + WhatsApp), what was sent, correcting the mobile; refused
 * (403) with the switch on and to other roles; another center's or group's study is 404.
 */

let t: TestApp;
type TWorld = Awaited<ReturnType<typeof createTestWorld>>;
let home: TWorld;
let doctor: { browser: TestClient; id: number };
let desk: TestClient;

beforeAll(async () => {
  t = await createTestApp({ publicUrl: 'https://radflow.example' });
  home = await createTestWorld(t.db);
  const d = await signedIn(t, { roles: ['ROLE_DOCTOR'], groupId: home.group.id });
  doctor = { browser: d.browser, id: d.user.id };
  desk = (await signedInAt(t, home, ['ROLE_CENTER_CUSTOMER'])).browser;
});
afterAll(() => t.close());

async function ok(res: Promise<{ statusCode: number; body: string }>, what: string) {
  const answer = await res;
  expect(answer.statusCode, `${what}: ${answer.body.slice(0, 300)}`).toBe(200);
  return answer;
}

async function study(
  place: { group: { id: number }; center: { id: number } },
  opts: { mobile: string | null; signOff?: boolean; patientName?: string },
) {
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    patientName: opts.patientName ?? 'ROE^ANNA',
    row: { studyName: 'MR BRAIN', assignedToUserId: doctor.id, mobileNumber: opts.mobile },
  });
  if (opts.signOff) {
    await ok(doctor.browser.post(`/api/report/lock/${row.id}`, {}), 'lock');
    await ok(
      doctor.browser.post(`/api/report/save/${row.id}`, {
        name: 'MR Brain',
        content: '<p>Normal.</p>',
        signOff: true,
        baseVersion: null,
      }),
      'sign-off',
    );
  }
  return row.id;
}

const patientsOf = async (browser: TestClient, search = '') =>
  JSON.parse(
    (await ok(browser.get(`/api/manage-patient/patients?search=${encodeURIComponent(search)}`), 'list')).body,
  ) as TCenterPatients;

describe('the center customer manages its patients', () => {
  it('lists the center’s studies with the mobile, sends the signed-off report by SMS and WhatsApp, and shows what was sent', async () => {
    const mobile = uniqueMobile();
    const signed = await study(home, { mobile, signOff: true, patientName: 'KHAN^ZARA' });
    const pending = await study(home, { mobile: uniqueMobile(), patientName: 'KHAN^ZARA' });

    const { patients } = await patientsOf(desk, 'khan');
    expect(patients.map((p) => p.reportStatusId)).toEqual([pending, signed]);
    expect(patients[1]).toMatchObject({
      patientName: 'ZARA KHAN',
      mobileNumber: mobile,
      isSignedOff: true,
      sentCount: 0,
      lastSentAt: null,
    });
    expect((await patientsOf(desk, mobile)).patients.map((p) => p.reportStatusId)).toEqual([signed]);

    const sent = await ok(desk.post(`/api/manage-patient/send/${signed}`), 'send');
    expect(JSON.parse(sent.body)).toMatchObject({ channels: ['SMS', 'WHATSAPP'] });
    const outbox = await t.db.select().from(messageOutbox).where(eq(messageOutbox.reportStatusId, signed));
    expect(outbox.map((m) => [m.channel, m.recipient]).sort()).toEqual([
      ['SMS', mobile],
      ['WHATSAPP', mobile],
    ]);
    expect(outbox[0]?.body).toContain('https://radflow.example/share?link=');
    // Sending again is allowed (a patient loses messages).
    await ok(desk.post(`/api/manage-patient/send/${signed}`), 'resend');

    const history = JSON.parse(
      (await ok(desk.get(`/api/manage-patient/messages/${signed}`), 'messages')).body,
    ) as TReportMessage[];
    expect(history).toHaveLength(4);
    const row = (await patientsOf(desk, 'khan')).patients.find((p) => p.reportStatusId === signed);
    expect(row).toMatchObject({ sentCount: 4, lastSentAt: expect.any(String) });

    // Not before sign-off; not without a mobile.
    const early = await desk.post(`/api/manage-patient/send/${pending}`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ errorDescription: M.notSignedOff });
    const noMobile = await study(home, { mobile: null, signOff: true });
    const none = await desk.post(`/api/manage-patient/send/${noMobile}`);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ errorDescription: M.noMobile });
  });

  it('corrects the mobile: the old number stops seeing the study, a stale save is 409, bad input 400', async () => {
    const oldMobile = uniqueMobile();
    const newMobile = uniqueMobile();
    const id = await study(home, { mobile: oldMobile, signOff: true });
    await ok(desk.post(`/api/manage-patient/send/${id}`), 'send to the wrong number');
    await createTestUser(t.db, { roles: ['ROLE_CUSTOMER'], groupId: home.group.id, mobileNumber: oldMobile });
    const wrongPerson = new TestClient(t.app);
    await ok(wrongPerson.post('/api/user/generate-otp', { mobile: oldMobile }), 'otp');
    await ok(
      wrongPerson.post('/api/do-login', {
        email: oldMobile,
        password: await readOtpFromOutbox(t.db, oldMobile),
      }),
      'login',
    );
    const listOf = async () =>
      (
        JSON.parse(
          (await ok(wrongPerson.get('/api/customer-report/reports'), 'reports')).body,
        ) as TCustomerReports
      ).reports;
    expect((await listOf()).map((r) => r.reportStatusId)).toEqual([id]);

    const bad = await desk.post(`/api/manage-patient/mobile/${id}`, {
      mobileNumber: '12345',
      previousMobileNumber: oldMobile,
    });
    expect(bad.statusCode).toBe(400);
    const stale = await desk.post(`/api/manage-patient/mobile/${id}`, {
      mobileNumber: newMobile,
      previousMobileNumber: uniqueMobile(),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ errorDescription: M.mobileChanged });

    await ok(
      desk.post(`/api/manage-patient/mobile/${id}`, {
        mobileNumber: newMobile,
        previousMobileNumber: oldMobile,
      }),
      'correct',
    );
    const [row] = await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id));
    expect(row?.mobileNumber).toBe(newMobile);
    expect(row?.sharedNumbers).not.toContain(oldMobile);
    expect(await listOf()).toEqual([]);
    const events = await t.db.select().from(studyEvents).where(eq(studyEvents.reportStatusId, id));
    expect(events.filter((e) => e.eventType === 'DETAILS_UPDATED')).toHaveLength(1);
  });
});

describe('who may', () => {
  it('403 for every other role, before any lookup', async () => {
    const id = await study(home, { mobile: uniqueMobile(), signOff: true });
    for (const role of ROLES.filter((r) => r !== 'ROLE_CENTER_CUSTOMER')) {
      const { browser } = await signedInAt(t, home, [role]);
      expect((await browser.get('/api/manage-patient/patients')).statusCode, role).toBe(403);
      expect((await browser.post(`/api/manage-patient/send/${id}`)).statusCode, role).toBe(403);
      expect((await browser.get(`/api/manage-patient/messages/${id}`)).statusCode, role).toBe(403);
      const mobile = { mobileNumber: uniqueMobile(), previousMobileNumber: null };
      expect((await browser.post(`/api/manage-patient/mobile/${id}`, mobile)).statusCode, role).toBe(403);
    }
  });

  it('404 for a study of another center or another group, which the list never shows', async () => {
    const secondCenter = await createTestCenter(t.db, { groupId: home.group.id });
    const otherGroup = await createTestWorld(t.db);
    const mobile = uniqueMobile();
    const elsewhere = [
      { groupId: home.group.id, centerId: secondCenter.id },
      { groupId: otherGroup.group.id, centerId: otherGroup.center.id },
    ];
    for (const place of elsewhere) {
      const { row } = await createTestStudy(t.db, {
        ...place,
        row: { status: 'SIGNED_OFF', mobileNumber: mobile },
      });
      const id = row.id;
      expect((await desk.post(`/api/manage-patient/send/${id}`)).statusCode).toBe(404);
      expect((await desk.get(`/api/manage-patient/messages/${id}`)).statusCode).toBe(404);
      const res = await desk.post(`/api/manage-patient/mobile/${id}`, {
        mobileNumber: uniqueMobile(),
        previousMobileNumber: mobile,
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await patientsOf(desk, mobile)).patients).toEqual([]);
  });

  it('with doNotSendWhatsappMessage on: 403 on every call and no menu item', async () => {
    const off = await createTestWorld(t.db, { doNotSendWhatsappMessage: true });
    const offDesk = (await signedInAt(t, off, ['ROLE_CENTER_CUSTOMER'])).browser;
    const { row } = await createTestStudy(t.db, {
      groupId: off.group.id,
      centerId: off.center.id,
      row: { status: 'SIGNED_OFF', mobileNumber: uniqueMobile() },
    });
    const calls = [
      offDesk.get('/api/manage-patient/patients'),
      offDesk.post(`/api/manage-patient/send/${row.id}`),
      offDesk.get(`/api/manage-patient/messages/${row.id}`),
      offDesk.post(`/api/manage-patient/mobile/${row.id}`, {
        mobileNumber: uniqueMobile(),
        previousMobileNumber: row.mobileNumber,
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ errorDescription: M.managePatientOff });
    }
    const ctx = { ...defaultMenuContext(['ROLE_CENTER_CUSTOMER']), doNotSendWhatsappMessage: true };
    expect(menuForUser(ctx).map((i) => i.path)).not.toContain('/manage-patient');
    // The switch turned off again opens it.
    await setGroupPreference(t.db, off.group.id, 'GROUP_SWITCHES', { doNotSendWhatsappMessage: false });
    await setGroupPreference(t.db, off.group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', {
      doNotSendWhatsappMessage: false,
    });
    expect((await offDesk.get('/api/manage-patient/patients')).statusCode).toBe(200);
  });
});
