import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TRole,
  TStudyAttachment,
  TStudyAttachmentLists,
  TStudyDetail,
  TStudyHistory,
  TReportsResponse,
} from '@radflow/core';
import { formBody } from '../../../test/archive/helpers.js';
import { uploadAudio } from './access-matrix-reporting.calls.js';
import { type TestApp, type TestClient, createTestApp, uniqueMobile } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, mapTestUser, signedIn } from '../../../test/worklist-test-data.js';

/*
 * Security issue §1: who reads a report that is not signed off. Only those who write, type or verify
 * it (doctor, typist, verifier: core readsUnsignedReports) read it before sign-off, with its saved
 * versions. Every other role that sees the row reads what leaves the center — the signed-off report
 * with its addenda, like the share page and the PDF — and no versions. The study's working papers
 * (timeline, history attachments, audio notes) stay with the staff (core readsReportWork); the
 * read-only roles of spec-core §5 (referring doctor, auditor, customer, viewer, lab roles) get none.
 * Each role × each call that answers report content or history, on a REPORTED and a SIGNED_OFF study.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PRELIMINARY = 'Preliminary wording';
const FIRST_DRAFT = 'First draft wording';
const SIGNED = 'Signed wording';
const ADDENDUM = 'Addendum wording';

const READ_ONLY = [
  'ROLE_CUSTOMER',
  'ROLE_VIEWER',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_AUDITOR',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
] as const satisfies readonly TRole[];
/** Staff who work on the study but do not write its report. */
const STAFF = ['ROLE_CENTER', 'ROLE_ADMIN', 'ROLE_ASSIGNOR'] as const satisfies readonly TRole[];
const WRITERS = ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER'] as const satisfies readonly TRole[];
type TWho = (typeof READ_ONLY)[number] | (typeof STAFF)[number] | (typeof WRITERS)[number];
const AT_CENTER: readonly TRole[] = ['ROLE_CENTER', 'ROLE_LABS_SUPERVISOR', 'ROLE_LABS_RECEPTIONIST'];

interface TStudy {
  id: number;
  historyPath: string;
  reportAttachmentPath: string;
  audioId: number;
}
let users: Record<TWho, { id: number; email: string; browser: TestClient }>;
let reported: TStudy;
let signedOff: TStudy;

async function ok(res: Promise<{ statusCode: number; body: string }>, what: string) {
  const r = await res;
  expect(r.statusCode, `${what}: ${r.body}`).toBe(200);
  return r;
}

function uploadAttachment(browser: TestClient, prefix: string, id: number) {
  const body = formBody({}, [{ name: 'paper.pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }]);
  return browser.request({
    method: 'POST',
    url: `/api/${prefix}/upload/${id}`,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

/** A study of the center every read-only user sees, taken through the report lifecycle by the doctor. */
async function createStudy(world: { group: { id: number }; center: { id: number } }, signOff: boolean) {
  const { row } = await createTestStudy(t.db, {
    groupId: world.group.id,
    centerId: world.center.id,
    row: {
      studyName: 'CT CHEST',
      assignedToUserId: users.ROLE_DOCTOR.id,
      auditorUserId: users.ROLE_AUDITOR.id,
      referringDoctorUserId: users.ROLE_REFERRING_DOCTOR.id,
      mobileNumber: customerMobile,
      sharedEmails: [users.ROLE_VIEWER.email],
    },
  });
  const doctor = users.ROLE_DOCTOR.browser;
  const id = row.id;
  await ok(doctor.post(`/api/report/lock/${id}`, {}), 'lock');
  // Each save starts from the one before it (issue 21 §7 baseVersion).
  let baseVersion: number | null = null;
  const save = async (content: string, sign: boolean) => {
    const res = await ok(
      doctor.post(`/api/report/save/${id}`, { name: 'CT Chest', content, signOff: sign, baseVersion }),
      'save',
    );
    baseVersion = (JSON.parse(res.body) as { savedVersion: number }).savedVersion;
  };
  if (signOff) {
    await save(`<p>${FIRST_DRAFT}</p>`, false);
    await save(`<p>${SIGNED}</p>`, true);
    await ok(doctor.post(`/api/report/addendum/${id}`, { content: `<p>${ADDENDUM}</p>` }), 'addendum');
  } else {
    await save(`<p>${PRELIMINARY}</p>`, false);
  }
  const admin = users.ROLE_ADMIN.browser;
  const history = await ok(uploadAttachment(admin, 'history', id), 'history upload');
  const report = await ok(uploadAttachment(admin, 'report-attachment', id), 'report attachment upload');
  const audio = await ok(uploadAudio(doctor, id), 'audio upload');
  return {
    id,
    historyPath: JSON.parse(history.body).path as string,
    reportAttachmentPath: JSON.parse(report.body).path as string,
    audioId: JSON.parse(audio.body).audioId as number,
  } satisfies TStudy;
}

let customerMobile: string;
beforeAll(async () => {
  const world = await createTestWorld(t.db);
  customerMobile = uniqueMobile();
  const made = {} as typeof users;
  for (const role of [...READ_ONLY, ...STAFF, ...WRITERS]) {
    const { user, browser } = await signedIn(t, {
      roles: [role],
      groupId: world.group.id,
      centerId: AT_CENTER.includes(role) ? world.center.id : null,
      mobileNumber: role === 'ROLE_CUSTOMER' ? customerMobile : null,
    });
    made[role] = { id: user.id, email: user.email, browser };
  }
  users = made;
  // The typist types for the doctor, so sees the doctor's rows.
  await mapTestUser(t.db, users.ROLE_TYPIST.id, 'ROLE_DOCTOR', users.ROLE_DOCTOR.id);
  reported = await createStudy(world, false);
  signedOff = await createStudy(world, true);
});

/** Every call that answers report content or its history, as the browser makes it. */
const calls = {
  report: (b: TestClient, s: TStudy) => b.get(`/api/report/${s.id}`),
  detail: (b: TestClient, s: TStudy) => b.get(`/api/report-status/id/${s.id}`),
  history: (b: TestClient, s: TStudy) => b.get(`/api/history/${s.id}`),
  timeline: (b: TestClient, s: TStudy) => b.get(`/api/report-status/timeline/${s.id}`),
  attachments: (b: TestClient, s: TStudy) => b.get(`/api/attachments/${s.id}`),
  historyDownload: (b: TestClient, s: TStudy) =>
    b.get(`/api/history/download/${s.id}/${s.historyPath}/paper.pdf`),
  reportAttachmentDownload: (b: TestClient, s: TStudy) =>
    b.get(`/api/report-attachment/download/${s.id}/${s.reportAttachmentPath}`),
  audioList: (b: TestClient, s: TStudy) => b.get(`/api/report-audio/fetch-audio/${s.id}`),
  audioFile: (b: TestClient, s: TStudy) => b.get(`/api/report-audio/file/${s.id}/${s.audioId}`),
  draft: (b: TestClient, s: TStudy) => b.get(`/api/report/draft/${s.id}`),
  templates: (b: TestClient) => b.get('/api/report-template/?modality=CT'),
};
type TCall = keyof typeof calls;

/** What a read-only role gets from each call: the status, on a REPORTED and on a SIGNED_OFF study. */
const READ_ONLY_STATUS: Record<TCall, { reported: number; signedOff: number }> = {
  report: { reported: 200, signedOff: 200 },
  detail: { reported: 200, signedOff: 200 },
  history: { reported: 200, signedOff: 200 },
  timeline: { reported: 403, signedOff: 403 },
  attachments: { reported: 200, signedOff: 200 },
  historyDownload: { reported: 403, signedOff: 403 },
  reportAttachmentDownload: { reported: 403, signedOff: 200 },
  audioList: { reported: 403, signedOff: 403 },
  audioFile: { reported: 403, signedOff: 403 },
  draft: { reported: 403, signedOff: 403 },
  templates: { reported: 403, signedOff: 403 },
};

describe.each(READ_ONLY)('%s reads only what leaves the center', (role) => {
  it.each(Object.keys(calls) as TCall[])(
    '%s: never the preliminary text, versions or staff papers',
    async (call) => {
      const { browser } = users[role];
      for (const [name, study] of [
        ['reported', reported],
        ['signedOff', signedOff],
      ] as const) {
        const res = await calls[call](browser, study);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(READ_ONLY_STATUS[call][name]);
        // No call ever carries text that was not signed off, nor an earlier version of the signed one.
        expect(res.body).not.toContain(PRELIMINARY);
        expect(res.body).not.toContain(FIRST_DRAFT);
      }
    },
  );

  it('the report: nothing before sign-off; the signed report and its addendum after, without versions', async () => {
    const { browser } = users[role];
    const before = (await calls.report(browser, reported)).json<TReportsResponse>();
    expect(before.reports).toEqual([]);
    const after = (await calls.report(browser, signedOff)).json<TReportsResponse>();
    expect(after.reports.map((r) => [r.isAddendum, r.content, r.versions])).toEqual([
      [false, `<p>${SIGNED}</p>`, []],
      [true, `<p>${ADDENDUM}</p>`, []],
    ]);
  });

  it('the study row and its history: reports as above, no timeline, no history papers', async () => {
    const { browser } = users[role];
    const detail = (await calls.detail(browser, reported)).json<TStudyDetail>();
    expect(detail.reports).toEqual([]);
    const history = (await calls.history(browser, reported)).json<TStudyHistory>();
    expect(history.timeline).toEqual([]);
    expect(history.historyAttachment).toEqual([]);
    expect(history.reportAttachment).toEqual([]);
    const signedHistory = (await calls.history(browser, signedOff)).json<TStudyHistory>();
    expect(signedHistory.reports.map((r) => r.content)).toEqual([`<p>${SIGNED}</p>`, `<p>${ADDENDUM}</p>`]);
    expect(signedHistory.timeline).toEqual([]);
    expect(signedHistory.historyAttachment).toEqual([]);
    expect(signedHistory.reportAttachment.map((a: TStudyAttachment) => a.path)).toEqual([
      signedOff.reportAttachmentPath,
    ]);
    const lists = (await calls.attachments(browser, reported)).json<TStudyAttachmentLists>();
    expect([lists.historyAttachment, lists.reportAttachment]).toEqual([[], []]);
  });
});

/** The study's working papers (timeline, history attachments, audio notes) all answer the caller. */
async function expectReadsReportWork(browser: TestClient) {
  const history = (await calls.history(browser, reported)).json<TStudyHistory>();
  expect(history.timeline.length).toBeGreaterThan(0);
  expect(history.historyAttachment.map((a: TStudyAttachment) => a.path)).toEqual([reported.historyPath]);
  for (const call of [
    'timeline',
    'historyDownload',
    'reportAttachmentDownload',
    'audioList',
    'audioFile',
  ] as const) {
    const res = await calls[call](browser, reported);
    expect(res.statusCode, `${call}: ${res.body}`).toBe(200);
  }
}

describe.each(STAFF)('%s works on the study but reads only the signed-off report', (role) => {
  it('no preliminary text and no versions; the timeline, every attachment and the audio notes', async () => {
    const { browser } = users[role];
    for (const call of ['report', 'detail', 'history'] as const) {
      for (const study of [reported, signedOff]) {
        const res = await calls[call](browser, study);
        expect(res.statusCode, `${call}: ${res.body}`).toBe(200);
        expect(res.body).not.toContain(PRELIMINARY);
        expect(res.body).not.toContain(FIRST_DRAFT);
      }
    }
    expect((await calls.report(browser, reported)).json<TReportsResponse>().reports).toEqual([]);
    const signed = (await calls.report(browser, signedOff)).json<TReportsResponse>();
    expect(signed.reports.map((r) => [r.content, r.versions])).toEqual([
      [`<p>${SIGNED}</p>`, []],
      [`<p>${ADDENDUM}</p>`, []],
    ]);
    await expectReadsReportWork(browser);
  });
});

describe.each(WRITERS)('%s writes the report and reads it all', (role) => {
  it('the preliminary report with its versions, the timeline, every attachment and the audio notes', async () => {
    const { browser } = users[role];
    const reports = (await calls.report(browser, reported)).json<TReportsResponse>();
    expect(reports.reports.map((r) => [r.content, r.versions.length])).toEqual([
      [`<p>${PRELIMINARY}</p>`, 1],
    ]);
    const signed = (await calls.report(browser, signedOff)).json<TReportsResponse>();
    expect(signed.reports[0]?.versions.map((v) => v.content)).toEqual([
      `<p>${FIRST_DRAFT}</p>`,
      `<p>${SIGNED}</p>`,
    ]);
    const detail = (await calls.detail(browser, reported)).json<TStudyDetail>();
    expect(detail.reports.map((r) => r.content)).toEqual([`<p>${PRELIMINARY}</p>`]);
    await expectReadsReportWork(browser);
  });
});
