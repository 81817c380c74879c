import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ROLES, type TRole, type TStudyAttachment, type TStudyAttachmentKind } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { groups, studyTypes } from '../../db/schema.js';
import { formBody } from '../../../test/archive/helpers.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import {
  type TEndpoint,
  MATRIX,
  MATRIX_FLAGS,
  type TMatrixRow,
  expectedCell,
} from './access-matrix.table.js';
import { REPORTING_MATRIX } from './access-matrix-reporting.table.js';
import { PAYMENTS_MATRIX } from './access-matrix-payments.table.js';
import { BUSINESS_EXEMPT, BUSINESS_MATRIX } from './access-matrix-business.table.js';
import { BUSINESS_CALLS, EXEMPT_CALLS } from './access-matrix-business.calls.js';
import { createdStatusFor, reportingMatrixCalls } from './access-matrix-reporting.calls.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
  setGroupPreference,
  uniqueMobile,
} from '../../../test/test-app.js';
import {
  addTestTag,
  createTestStudies,
  createTestStudy,
  mapTestUser,
  signedIn,
} from '../../../test/worklist-test-data.js';

/**
 * The access matrix of issue 4 §6, of issue 7's reporting calls, of the study payment calls and of issue
 * 26's business calls (access-matrix-business.table.ts, with the calls exempt from it and why): every
 * list, study-action, reporting and payment endpoint × every role, each cell its own test. The
 * expectations are the hand-written tables in access-matrix.table.ts, access-matrix-reporting.table.ts
 * and access-matrix-payments.table.ts; here only the
 * world: one user per role, and per cell a fresh study in the row's state that the role can see
 * (center roles belong to its center, the doctor is assigned, the typist works for that doctor, the
 * auditor audits it, the referring doctor has it shared, the customer's mobile is the patient's), so
 * a 403 comes from the permission and not from visibility.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
const fixtures = studyActionFixtures(() => t);
afterAll(() => t.close());

/** Roles whose users belong to a center (README demo accounts; spec-core §6 center users, lab staff). */
const AT_CENTER: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_OFFLINE_HYBRID',
];
const STUDY_TYPE = 'CT Chest';
const SECOND_STUDY_TYPE = 'CT Abdomen';

interface TWorld {
  groupId: number;
  centerId: number;
  customerMobile: string;
  /** A user outside the matrix who made the global tag the tag rows change. */
  tagAuthorId: number;
  users: Map<TRole, { id: number; email: string; browser: TestClient }>;
}
let world: TWorld;

beforeAll(async () => {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  // The platform's operator group, so the platform billing rows have roles that are allowed.
  await t.db.update(groups).set({ platformOperator: true }).where(eq(groups.id, group.id));
  await t.db.insert(studyTypes).values([
    { groupId: group.id, name: STUDY_TYPE, modality: 'CT' },
    { groupId: group.id, name: SECOND_STUDY_TYPE, modality: 'CT' },
  ]);
  const customerMobile = uniqueMobile();
  const users: TWorld['users'] = new Map();
  for (const role of ROLES) {
    const { user, browser } = await signedIn(t, {
      roles: [role],
      groupId: group.id,
      centerId: AT_CENTER.includes(role) ? center.id : null,
      mobileNumber: role === 'ROLE_CUSTOMER' ? customerMobile : null,
    });
    users.set(role, { id: user.id, email: user.email, browser });
  }
  const typist = users.get('ROLE_TYPIST');
  const doctor = users.get('ROLE_DOCTOR');
  if (!typist || !doctor) throw new Error('matrix users missing');
  await mapTestUser(t.db, typist.id, 'ROLE_DOCTOR', doctor.id);
  const tagAuthor = await createTestUser(t.db, { roles: ['ROLE_ASSIGNOR'], groupId: group.id });
  world = { groupId: group.id, centerId: center.id, customerMobile, tagAuthorId: tagAuthor.id, users };
});

function userOf(role: TRole) {
  const user = world.users.get(role);
  if (!user) throw new Error(`no matrix user for ${role}`);
  return user;
}

/** The row's switches on, every other matrix switch off; written only when they change. */
let appliedFlags: string | null = null;
async function applyFlags(row: TMatrixRow) {
  const flags = Object.fromEntries(MATRIX_FLAGS.map((f) => [f, row.flags?.[f] ?? false]));
  const key = JSON.stringify(flags);
  if (key === appliedFlags) return;
  await setGroupPreference(t.db, world.groupId, 'GROUP_SWITCHES', flags);
  await setGroupPreference(t.db, world.groupId, 'USER_ADMIN_VISIBLE_PREFERENCES', flags);
  appliedFlags = key;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function upload(browser: TestClient, url: string) {
  const body = formBody({}, [{ name: 'matrix.pdf', bytes: PDF }]);
  return browser.request({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

const ATTACHMENT_PREFIX: Record<TStudyAttachmentKind, string> = {
  HISTORY: 'history',
  FILM: 'film',
  REPORT: 'report-attachment',
};

/** What a cell acts on: a fresh study, and the attachment, tag or audio note a call needs on it. */
interface TTarget {
  id: number;
  uid: string;
  attachment: TStudyAttachment | null;
  tagId: number | null;
  audioId: number | null;
}

/** The attachment kind an endpoint needs to exist beforehand. */
const NEEDS_ATTACHMENT: Partial<Record<TEndpoint, TStudyAttachmentKind>> = {
  historyDownload: 'HISTORY',
  historyDelete: 'HISTORY',
  filmDelete: 'FILM',
  reportAttachmentDelete: 'REPORT',
};

const NO_TARGET: TTarget = { id: 0, uid: '', attachment: null, tagId: null, audioId: null };
const reporting = reportingMatrixCalls({ doctor: () => userOf('ROLE_DOCTOR') });
/** Every row: the study actions of issue 4 and the reporting calls of issue 7. */
const ROWS: readonly TMatrixRow[] = [...MATRIX, ...REPORTING_MATRIX, ...PAYMENTS_MATRIX, ...BUSINESS_MATRIX];

/** The study a row's cell acts on, before the cell's own setup: in the row's state, seen by every role. */
function studyOptions(row: TMatrixRow & { status: NonNullable<TMatrixRow['status']> }) {
  const doctor = userOf('ROLE_DOCTOR');
  const status = createdStatusFor(row.endpoint, row.status);
  return {
    groupId: world.groupId,
    centerId: world.centerId,
    row: {
      status,
      studyName: 'CT CHEST',
      studyParts: [STUDY_TYPE],
      assignedToUserId: doctor.id,
      auditorUserId: userOf('ROLE_AUDITOR').id,
      referringDoctorUserId: userOf('ROLE_REFERRING_DOCTOR').id,
      mobileNumber: world.customerMobile,
      ...(status === 'SIGNED_OFF' ? { signedOffAt: new Date(), firstSignedOffAt: new Date() } : {}),
      // A LOCKED study is held by the doctor who opened it (the reporting rows save on it).
      ...(status === 'LOCKED' ? { lockedByUserId: doctor.id } : {}),
    },
  };
}

type TFreshStudy = Awaited<ReturnType<typeof createTestStudy>>;

/**
 * A fresh study per cell, with what the row's call needs on it. `fresh`: one made beforehand for
 * this cell (a row makes its cells' studies in one insert); else it is made here.
 */
async function prepareTarget(row: TMatrixRow, fresh?: TFreshStudy): Promise<TTarget> {
  if (row.status === null) return NO_TARGET;
  const { row: report, study } =
    fresh ?? (await createTestStudy(t.db, studyOptions({ ...row, status: row.status })));
  let attachment: TStudyAttachment | null = null;
  const kind = NEEDS_ATTACHMENT[row.endpoint];
  if (kind) {
    // The admin may add every kind (study-attachments DECISIONS); the upload is setup, not the cell.
    const res = await upload(
      userOf('ROLE_ADMIN').browser,
      `/api/${ATTACHMENT_PREFIX[kind]}/upload/${report.id}`,
    );
    expect(res.statusCode, `setup upload: ${res.body}`).toBe(200);
    attachment = res.json<TStudyAttachment>();
  }
  let tagId: number | null = null;
  if (row.endpoint === 'deleteTag' || row.endpoint === 'updateTag') {
    const tag = await addTestTag(t.db, {
      groupId: world.groupId,
      reportStatusId: report.id,
      tag: 'matrix global tag',
      globalTag: true,
      createdByUserId: world.tagAuthorId,
    });
    tagId = tag.id;
  }
  if (row.endpoint === 'paymentCancel') {
    // The request to cancel, made by the admin (setup, not the cell).
    const res = await userOf('ROLE_ADMIN').browser.post(`/api/report-status/payment/request/${report.id}`, {
      amount: 500,
    });
    expect(res.statusCode, `setup payment request: ${res.body}`).toBe(200);
  }
  const { audioId } = await reporting.prepare(row.endpoint, row.status, {
    id: report.id,
    uid: study.studyInstanceUid,
  });
  return { id: report.id, uid: study.studyInstanceUid, attachment, tagId, audioId };
}

const del = (browser: TestClient, url: string, payload?: object) =>
  browser.request({ method: 'DELETE', url, ...(payload ? { payload } : {}) });

function pathOf(target: TTarget): string {
  if (!target.attachment) throw new Error('the call needs an attachment');
  return target.attachment.path;
}

/** One request per endpoint, with a body an allowed role would send. */
const CALLS: Record<TEndpoint, (browser: TestClient, target: TTarget) => Promise<LightMyRequestResponse>> = {
  listStudies: (b) => b.post('/api/dicom-web/studies/', {}),
  listReportStatus: (b) => b.post('/api/report-status/', {}),
  studyTypes: (b) => b.get('/api/user/study-type'),
  filmList: (b) => b.get('/api/films/get'),
  tagChoices: (b) => b.get('/api/report-tag/choices'),
  createStudy: (b) =>
    b.post('/api/dicom-web/study/create-from-website', {
      patientName: 'DOE^JANE',
      labModality: 'CT',
      patientAge: '40Y',
      patientSex: 'F',
      center: world.centerId,
      studyName: 'CT CHEST',
    }),
  studyDetail: (b, { id }) => b.get(`/api/report-status/id/${id}`),
  studyHistory: (b, { id }) => b.get(`/api/history/${id}`),
  studyTimeline: (b, { id }) => b.get(`/api/report-status/timeline/${id}`),
  attachmentLists: (b, { id }) => b.get(`/api/attachments/${id}`),
  studyTags: (b, { id }) => b.get(`/api/report-tag/list/${id}`),
  historyDownload: (b, target) => b.get(`/api/history/download/${target.id}/${pathOf(target)}/matrix.pdf`),
  urgent: (b, { id }) => b.post(`/api/report-status/urgent/${id}`),
  markDelete: (b, { id }) => b.post(`/api/report-status/mark-delete/${id}`),
  unlock: (b, { id }) => b.post(`/api/report-status/unlock/${id}`),
  rework: (b, { id }) => b.post(`/api/report-status/rework/${id}`),
  split: (b, { id }) => b.post(`/api/report-status/split/${id}`),
  updateDetails: (b, { id }) =>
    b.post(`/api/report-status/update-details/${id}`, {
      patientName: 'DOE^JANE',
      patientAge: '40Y',
      patientId: 'P-1',
      patientSex: 'F',
      studyName: 'CT CHEST',
      referringPhysicianName: 'Dr Who',
      history: 'Cough for two weeks',
      mobileNumber: world.customerMobile,
      reportParts: [STUDY_TYPE],
    }),
  addStudyPart: (b, { id }) =>
    b.post('/api/tele-pricing/add-study-part', {
      reportStatusId: id,
      reportParts: [STUDY_TYPE, SECOND_STUDY_TYPE],
    }),
  assign: (b, { id }) =>
    b.post('/api/report-status/assign', { reportId: id, assignedTo: userOf('ROLE_DOCTOR').email }),
  assignMulti: (b, { id }) =>
    b.post('/api/report-status/assign-multi', { reportId: [id], assignedTo: userOf('ROLE_DOCTOR').email }),
  auditorAssign: (b, { id }) =>
    b.post('/api/report-status/auditor-assign', {
      reportStatusId: id,
      auditorEmail: userOf('ROLE_AUDITOR').email,
    }),
  auditStatus: (b, { id }) => b.post(`/api/report-status/audit-status/${id}`, { status: 'APPROVED' }),
  historyUpload: (b, { id }) => upload(b, `/api/history/upload/${id}`),
  filmUpload: (b, { id }) => upload(b, `/api/film/upload/${id}`),
  reportAttachmentUpload: (b, { id }) => upload(b, `/api/report-attachment/upload/${id}`),
  historyDelete: (b, target) => del(b, `/api/history/delete/${target.id}/${pathOf(target)}`),
  filmDelete: (b, target) => del(b, `/api/film/delete/${target.id}/${pathOf(target)}`),
  reportAttachmentDelete: (b, target) =>
    del(b, `/api/report-attachment/delete/${target.id}/${pathOf(target)}`),
  addTag: (b, { id }) =>
    b.post('/api/report-tag/add-tags', { reportStatusId: id, tag: 'matrix', globalTag: false }),
  deleteTag: (b, { tagId }) => del(b, '/api/report-tag/delete', { id: tagId ?? 0 }),
  updateTag: (b, { tagId }) => b.post('/api/report-tag/update', { id: tagId ?? 0, globalTag: false }),
  saveReferringDoctor: (b, { id }) =>
    b.post('/api/report-status/save', {
      reportStatusId: id,
      referringDoctorEmail: userOf('ROLE_REFERRING_DOCTOR').email,
    }),
  sendMessage: (b, { id }) =>
    b.post(`/api/report-status/send-message/${id}`, { number: uniqueMobile(), referringPhysician: 'Dr Who' }),
  sendEmail: (b, { id }) => b.post(`/api/report-status/send-email/${id}`, { email: 'patient@example.com' }),
  ...reporting.calls,
  paymentList: (b, { id }) => b.get(`/api/report-status/payments/${id}`),
  paymentRequest: (b, { id }) => b.post(`/api/report-status/payment/request/${id}`, { amount: 750.5 }),
  paymentRecord: (b, { id }) =>
    b.post(`/api/report-status/payment/record/${id}`, { mode: 'CASH', amount: 300, transactionId: 'R-1' }),
  paymentCancel: (b, { id }) => b.post(`/api/report-status/payment/cancel/${id}`),
  ...BUSINESS_CALLS,
};

// A plain describe per row: '$title' in describe.each would cut long titles to 40 characters.
for (const row of ROWS) {
  describe(row.title, () => {
    // Each cell's own fresh study, all made at once (setup, not the cell): one insert per table
    // instead of two per cell.
    let fresh: TFreshStudy[] = [];
    beforeAll(async () => {
      if (row.status !== null)
        fresh = await createTestStudies(t.db, ROLES.length, studyOptions({ ...row, status: row.status }));
    });
    it.each(ROLES)('× %s', async (role) => {
      await applyFlags(row);
      const target = await prepareTarget(row, fresh.shift());
      const expected = expectedCell(row, role);
      const before = target.id === 0 ? null : await fixtures.snapshot(target.id);
      const res = await CALLS[row.endpoint](userOf(role).browser, target);
      expect(
        expected.statuses,
        `${row.title} × ${role}: expected ${expected.outcome} (${expected.statuses.join(' or ')}), ` +
          `got ${res.statusCode} ${res.body.slice(0, 300)} — source: ${row.source}`,
      ).toContain(res.statusCode);
      // A refusal leaves the study and its timeline as they were (no write before the check).
      if (expected.outcome === 'refused' && before)
        expect(await fixtures.snapshot(target.id)).toEqual(before);
    });
  });
}

/** Each endpoint once, signed out: 401 before anything else is looked at. */
const ENDPOINTS = [...new Map(ROWS.map((row) => [row.endpoint, row])).values()];

describe('signed out', () => {
  it.each(ENDPOINTS.map((row) => [row.title, row] as const))('%s answers 401', async (_title, row) => {
    const target = await prepareTarget(row);
    const res = await CALLS[row.endpoint](new TestClient(t.app), target);
    expect(res.statusCode, res.body).toBe(401);
  });
});

/** The calls outside the role matrix (each with its reason): every role gets the signed-out answer. */
describe('exempt from the role matrix', () => {
  it.each(BUSINESS_EXEMPT.map((e) => [e.title, e] as const))('%s', async (_title, exempt) => {
    const anonymous = await EXEMPT_CALLS[exempt.call](new TestClient(t.app));
    expect([400, 401, 404], exempt.reason).toContain(anonymous.statusCode);
    for (const role of ROLES) {
      const res = await EXEMPT_CALLS[exempt.call](userOf(role).browser);
      expect(res.statusCode, `${exempt.title} × ${role} (${exempt.reason}): ${res.body.slice(0, 200)}`).toBe(
        anonymous.statusCode,
      );
    }
  });
});

it('names every matrix row once, so each cell has its own name', () => {
  const titles = ROWS.map((row) => row.title);
  expect(new Set(titles).size).toBe(titles.length);
});
