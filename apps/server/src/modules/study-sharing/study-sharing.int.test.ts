import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TShareResponse, TStudyEventType } from '@radflow/core';
import { messageOutbox, reportStatuses, studyEvents } from '../../db/schema.js';
import { savePreferenceSection } from '../preferences/preferences.js';
import { type TestApp, createTestUser, setGroupPreference, uniqueMobile } from '../../../test/test-app.js';
import { type TestSmtp, useAppWithSmtp } from '../../../test/smtp-test-server.js';
import {
  createTestStudy,
  createTestWorld,
  createTwoWorlds,
  signedIn,
} from '../../../test/worklist-test-data.js';

const PUBLIC_URL = 'https://radflow.example';

const suite = useAppWithSmtp(PUBLIC_URL);
let t: TestApp;
let smtp: TestSmtp;
beforeAll(() => {
  ({ app: t, smtp } = suite);
});

async function createWorld() {
  const world = await createTwoWorlds(
    t,
    { centerUser: ['ROLE_CENTER'], doctor: ['ROLE_DOCTOR'], assignor: ['ROLE_ASSIGNOR'] },
    { otherCenterUser: ['ROLE_CENTER'] },
  );
  return {
    ...world,
    referringDoctor: await createTestUser(t.db, {
      roles: ['ROLE_REFERRING_DOCTOR'],
      groupId: world.group.id,
    }),
    otherReferringDoctor: await createTestUser(t.db, {
      roles: ['ROLE_REFERRING_DOCTOR'],
      groupId: world.other.group.id,
    }),
  };
}
let world: Awaited<ReturnType<typeof createWorld>>;
beforeAll(async () => {
  world = await createWorld();
});

/** A signed-off study (default: of the world's center), assigned to the world's doctor. */
async function createReport(place: { group: { id: number }; center: { id: number } } = world) {
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: place.center.id,
    patientName: 'SHARMA^ASHA',
    row: { status: 'SIGNED_OFF', studyName: 'MRI BRAIN', assignedToUserId: world.doctor.user.id },
  });
  return row;
}

const reportRow = async (id: number) =>
  (await t.db.select().from(reportStatuses).where(eq(reportStatuses.id, id)))[0]!;
const outboxTo = (recipient: string) =>
  t.db.select().from(messageOutbox).where(eq(messageOutbox.recipient, recipient));
const eventsOf = (reportStatusId: number, eventType: TStudyEventType) =>
  t.db
    .select()
    .from(studyEvents)
    .where(and(eq(studyEvents.reportStatusId, reportStatusId), eq(studyEvents.eventType, eventType)));

describe('POST /report-status/save (referring doctor)', () => {
  it('the center shares the study with a referring doctor of the group', async () => {
    const report = await createReport();
    const res = await world.centerUser.browser.post('/api/report-status/save', {
      studyId: report.studyId,
      reportStatusId: report.id,
      referringDoctorEmail: world.referringDoctor.email.toUpperCase(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      reportStatusId: report.id,
      referringDoctorEmail: world.referringDoctor.email,
    });
    const row = await reportRow(report.id);
    expect(row.referringDoctorUserId).toBe(world.referringDoctor.id);
    expect(row.referringPhysicianEmail).toBe(world.referringDoctor.email);
    expect(await eventsOf(report.id, 'REFERRING_DOCTOR_SAVED')).toHaveLength(1);
  });

  it('an e-mail that is no referring doctor of the group is 400 naming the field; nothing changes', async () => {
    const report = await createReport();
    for (const referringDoctorEmail of [
      'nobody@nowhere.test',
      world.otherReferringDoctor.email,
      world.doctor.user.email,
      'not-an-email',
    ]) {
      const res = await world.centerUser.browser.post('/api/report-status/save', {
        reportStatusId: report.id,
        referringDoctorEmail,
      });
      expect(res.statusCode, referringDoctorEmail).toBe(400);
      expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe('referringDoctorEmail');
    }
    const wrongStudy = await world.centerUser.browser.post('/api/report-status/save', {
      studyId: report.studyId + 1_000_000,
      reportStatusId: report.id,
      referringDoctorEmail: world.referringDoctor.email,
    });
    expect(wrongStudy.statusCode).toBe(400);
    expect(wrongStudy.json<{ additionalInfo: string }>().additionalInfo).toBe('studyId');
    const row = await reportRow(report.id);
    expect(row.referringDoctorUserId).toBeNull();
    expect(await eventsOf(report.id, 'REFERRING_DOCTOR_SAVED')).toEqual([]);
  });

  it('403 for an assignor, and for a doctor unless radiologistCanSendToReferringDoctor; 404 across groups', async () => {
    const report = await createReport();
    const body = { reportStatusId: report.id, referringDoctorEmail: world.referringDoctor.email };
    expect((await world.assignor.browser.post('/api/report-status/save', body)).statusCode).toBe(403);
    expect((await world.doctor.browser.post('/api/report-status/save', body)).statusCode).toBe(403);
    expect((await world.otherCenterUser.browser.post('/api/report-status/save', body)).statusCode).toBe(404);
    expect((await reportRow(report.id)).referringDoctorUserId).toBeNull();

    const { group, center } = await createTestWorld(t.db);
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { radiologistCanSendToReferringDoctor: true });
    const { browser: doctor, user: doctorUser } = await signedIn(t, {
      roles: ['ROLE_DOCTOR'],
      groupId: group.id,
    });
    const referring = await createTestUser(t.db, { roles: ['ROLE_REFERRING_DOCTOR'], groupId: group.id });
    const own = await createReport({ group, center });
    await t.db
      .update(reportStatuses)
      .set({ assignedToUserId: doctorUser.id })
      .where(eq(reportStatuses.id, own.id));
    const res = await doctor.post('/api/report-status/save', {
      reportStatusId: own.id,
      referringDoctorEmail: referring.email,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('POST /report-status/send-message/{id}', () => {
  it('sends SMS and WhatsApp with the share link; the number is recorded once; the link stays', async () => {
    const report = await createReport();
    const number = uniqueMobile();
    const res = await world.centerUser.browser.post(`/api/report-status/send-message/${report.id}`, {
      number,
      referringPhysician: 'Dr Mehta',
    });
    expect(res.statusCode, res.body).toBe(200);
    const shared = res.json<TShareResponse>();
    const row = await reportRow(report.id);
    expect(row.shareLink).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(shared.shareLink).toBe(`${PUBLIC_URL}/share?link=${row.shareLink}`);
    expect(shared.channels).toEqual(['SMS', 'WHATSAPP']);
    expect(row.sharedNumbers).toEqual([number]);

    const outbox = await outboxTo(number);
    expect(outbox.map((m) => m.channel).sort()).toEqual(['SMS', 'WHATSAPP']);
    for (const message of outbox) {
      expect(message.body).toContain(`${PUBLIC_URL}/share?link=${row.shareLink}`);
      expect(message.body).toContain('Dear Dr Mehta');
      expect(message.body).toContain('ASHA SHARMA');
    }

    const again = await world.centerUser.browser.post(`/api/report-status/send-message/${report.id}`, {
      number,
    });
    expect(again.statusCode).toBe(200);
    const after = await reportRow(report.id);
    expect(after.sharedNumbers).toEqual([number]);
    expect(after.shareLink).toBe(row.shareLink);
    expect(await eventsOf(report.id, 'SHARED_BY_MESSAGE')).toHaveLength(2);
  });

  it('under customMessageForGIC a patient gets their own text: their name, the center, its phone', async () => {
    const { group, center } = await createTestWorld(t.db);
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { customMessageForGIC: true });
    const { browser: centerUser, user } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: center.id,
    });
    await savePreferenceSection(t.db, {
      ownerId: user.id,
      section: 'USER_INFORMATION',
      value: { mobileNumber: '9812345678' },
      updatedBy: user.email,
    });
    const report = await createReport({ group, center });
    const patient = uniqueMobile();
    const res = await centerUser.post(`/api/report-status/send-message/${report.id}`, { number: patient });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<TShareResponse>().shareLink;
    const toPatient = await outboxTo(patient);
    expect(toPatient.map((m) => m.channel).sort()).toEqual(['SMS', 'WHATSAPP']);
    for (const message of toPatient) {
      expect(message.body).toBe(
        `Dear ASHA SHARMA, your MRI BRAIN report from ${center.name} is ready: ${link}\nFor any query, call 9812345678.`,
      );
    }
    // A referring physician named: the message is theirs, as without the switch.
    const doctor = uniqueMobile();
    await centerUser.post(`/api/report-status/send-message/${report.id}`, {
      number: doctor,
      referringPhysician: 'Dr Mehta',
    });
    const [toDoctor] = await outboxTo(doctor);
    expect(toDoctor!.body).toBe(
      `Dear Dr Mehta, the report of ASHA SHARMA, MRI BRAIN is shared with you: ${link}`,
    );
  });

  it('with doNotSendWhatsappMessage only the SMS goes', async () => {
    const { group, center } = await createTestWorld(t.db);
    await setGroupPreference(t.db, group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', {
      doNotSendWhatsappMessage: true,
    });
    const { browser: centerUser } = await signedIn(t, {
      roles: ['ROLE_CENTER'],
      groupId: group.id,
      centerId: center.id,
    });
    const report = await createReport({ group, center });
    const number = uniqueMobile();
    const res = await centerUser.post(`/api/report-status/send-message/${report.id}`, { number });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TShareResponse>().channels).toEqual(['SMS']);
    expect((await outboxTo(number)).map((m) => m.channel)).toEqual(['SMS']);
  });

  it('a number outside the mobile pattern is 400 naming number; nothing is sent or stored', async () => {
    const report = await createReport();
    for (const number of ['12345', '5123456789', '98765432101', '98765x4321']) {
      const res = await world.centerUser.browser.post(`/api/report-status/send-message/${report.id}`, {
        number,
      });
      expect(res.statusCode, number).toBe(400);
      expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe('number');
      expect(await outboxTo(number)).toEqual([]);
    }
    const row = await reportRow(report.id);
    expect(row.shareLink).toBeNull();
    expect(row.sharedNumbers).toEqual([]);
  });

  it('403 for an assignor, 404 for another group', async () => {
    const report = await createReport();
    const number = uniqueMobile();
    expect(
      (await world.assignor.browser.post(`/api/report-status/send-message/${report.id}`, { number }))
        .statusCode,
    ).toBe(403);
    expect(
      (await world.otherCenterUser.browser.post(`/api/report-status/send-message/${report.id}`, { number }))
        .statusCode,
    ).toBe(404);
    expect(await outboxTo(number)).toEqual([]);
  });
});

describe('POST /report-status/send-email/{id}', () => {
  it('mails the share link over SMTP, records the outbox row SENT and the address once', async () => {
    const report = await createReport();
    const to = `ref-${randomBytes(3).toString('hex')}@clinic.test`;
    const res = await world.centerUser.browser.post(`/api/report-status/send-email/${report.id}`, {
      email: to,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await reportRow(report.id);
    expect(row.sharedEmails).toEqual([to]);

    const mail = smtp.messages.find((m) => m.to.includes(to));
    expect(mail?.from).toBe('reports@radflow.example');
    const [headers, encoded] = mail!.data.split('\r\n\r\n');
    expect(headers).toContain(`To: ${to}`);
    expect(headers).toContain('Subject: Report shared with you: ASHA SHARMA, MRI BRAIN');
    const text = Buffer.from(encoded!.replace(/\r\n/g, ''), 'base64').toString('utf8');
    expect(text).toContain(`${PUBLIC_URL}/share?link=${row.shareLink}`);

    const [outbox] = await outboxTo(to);
    expect(outbox).toMatchObject({ channel: 'EMAIL', status: 'SENT' });
    await world.centerUser.browser.post(`/api/report-status/send-email/${report.id}`, {
      email: to.toUpperCase(),
    });
    expect((await reportRow(report.id)).sharedEmails).toEqual([to]);
    expect(await eventsOf(report.id, 'SHARED_BY_EMAIL')).toHaveLength(2);
  });

  it('a refused recipient marks the outbox row FAILED and says so', async () => {
    const report = await createReport();
    const to = `x-${randomBytes(3).toString('hex')}@refused.test`;
    const res = await world.centerUser.browser.post(`/api/report-status/send-email/${report.id}`, {
      email: to,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json<{ errorDescription: string }>().errorDescription).toBe('The e-mail could not be sent');
    const [outbox] = await outboxTo(to);
    expect(outbox?.status).toBe('FAILED');
  });

  it('a bad address is 400 naming email; 403 for an assignor; nothing sent', async () => {
    const report = await createReport();
    const before = smtp.messages.length;
    const bad = await world.centerUser.browser.post(`/api/report-status/send-email/${report.id}`, {
      email: 'no-at-sign',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ additionalInfo: string }>().additionalInfo).toBe('email');
    const refused = await world.assignor.browser.post(`/api/report-status/send-email/${report.id}`, {
      email: 'a@b.test',
    });
    expect(refused.statusCode).toBe(403);
    expect(smtp.messages.length).toBe(before);
    expect((await reportRow(report.id)).sharedEmails).toEqual([]);
  });
});
