import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TReportStatus, TRole, TStudyListPage } from '@radflow/core';
import { reportStatuses, studies } from '../src/db/schema.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from './test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A study and its report-status row, inserted directly (the list reads rows; ingest has its own tests). */
async function createTestStudy(opts: {
  groupId: number;
  centerId: number;
  patientName?: string;
  patientId?: string;
  status?: TReportStatus;
  urgent?: boolean;
  createdAt?: Date;
  studyDate?: string;
  studyTime?: string;
  modalities?: string[];
}) {
  const uid = `1.2.826.0.1.${Date.now()}.${randomBytes(4).readUInt32BE()}`;
  const [study] = await t.db
    .insert(studies)
    .values({
      groupId: opts.groupId,
      centerId: opts.centerId,
      studyInstanceUid: uid,
      patientName: opts.patientName ?? 'DOE^JANE',
      patientId: opts.patientId ?? `P${randomBytes(3).toString('hex')}`,
      studyDate: opts.studyDate ?? '',
      studyTime: opts.studyTime ?? '',
      modalities: opts.modalities ?? ['CT'],
      seriesCount: 2,
      instanceCount: 10,
    })
    .returning();
  if (!study) throw new Error('study not created');
  const [row] = await t.db
    .insert(reportStatuses)
    .values({
      studyId: study.id,
      groupId: opts.groupId,
      centerId: opts.centerId,
      status: opts.status ?? 'CREATED',
      urgent: opts.urgent ?? false,
      ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
    })
    .returning();
  if (!row) throw new Error('report status not created');
  return { study, row };
}

async function signedIn(opts: { roles: TRole[]; groupId: number; centerId?: number | null }) {
  const user = await createTestUser(t.db, opts);
  const browser = new TestClient(t.app);
  expect((await browser.login(user.email, user.password)).statusCode).toBe(200);
  return browser;
}

async function list(browser: TestClient, path: string, body: Record<string, unknown> = {}) {
  const res = await browser.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TStudyListPage>();
}

const ids = (page: TStudyListPage) => page.content.map((r) => r.id);

describe('who sees what', () => {
  it("shows a center its own studies, another center none of them, the group's admin all", async () => {
    const group = await createTestGroup(t.db);
    const north = await createTestCenter(t.db, { groupId: group.id, name: 'North Imaging' });
    const south = await createTestCenter(t.db, { groupId: group.id });
    const a = await createTestStudy({
      groupId: group.id,
      centerId: north.id,
      patientName: 'ROY^ANNA',
      studyDate: '20240131',
      studyTime: '093015.25',
      modalities: ['CT', 'SR'],
    });
    const b = await createTestStudy({ groupId: group.id, centerId: south.id });
    const otherGroup = await createTestGroup(t.db);
    const elsewhere = await createTestCenter(t.db, { groupId: otherGroup.id });
    await createTestStudy({ groupId: otherGroup.id, centerId: elsewhere.id });

    const northUser = await signedIn({ roles: ['ROLE_CENTER'], groupId: group.id, centerId: north.id });
    const page = await list(northUser, '/api/report-status/');
    expect(ids(page)).toEqual([a.row.id]);
    expect(page.content[0]).toMatchObject({
      instanceId: a.study.studyInstanceUid,
      apiVersion: 2,
      status: 'CREATED',
      urgent: false,
      assignedTo: null,
      patientName: 'ROY^ANNA',
      modality: 'CT,SR',
      count: { series: 2, images: 10 },
      studyDateTime: '2024-01-31 09:30:15',
      radiologyCenter: 'North Imaging',
      centerEmail: north.email,
      tags: [],
    });

    const southUser = await signedIn({ roles: ['ROLE_CENTER'], groupId: group.id, centerId: south.id });
    expect(ids(await list(southUser, '/api/report-status/'))).toEqual([b.row.id]);

    const admin = await signedIn({ roles: ['ROLE_ADMIN'], groupId: group.id });
    expect(ids(await list(admin, '/api/dicom-web/studies/'))).toEqual([b.row.id, a.row.id]);
    expect(ids(await list(admin, '/api/report-status/'))).toEqual([b.row.id, a.row.id]);
  });

  it('gives a referring doctor an empty page until sharing exists, and other roles a 403', async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    await createTestStudy({ groupId: group.id, centerId: center.id });
    const referring = await signedIn({ roles: ['ROLE_REFERRING_DOCTOR'], groupId: group.id });
    const page = await list(referring, '/api/dicom-web/studies/');
    expect(page).toMatchObject({ totalElements: 0, empty: true, content: [] });

    expect((await referring.post('/api/report-status/', {})).statusCode).toBe(403);
    const centerUser = await signedIn({ roles: ['ROLE_CENTER'], groupId: group.id, centerId: center.id });
    expect((await centerUser.post('/api/dicom-web/studies/', {})).statusCode).toBe(403);
    const customer = await signedIn({ roles: ['ROLE_CUSTOMER'], groupId: group.id });
    expect((await customer.post('/api/dicom-web/studies/', {})).statusCode).toBe(403);
  });

  it("gives a tele-radiology user the group's rows on the report-status list only", async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const { row } = await createTestStudy({ groupId: group.id, centerId: center.id });
    const tele = await signedIn({ roles: ['ROLE_TELE_RADIOLOGY'], groupId: group.id });
    expect(ids(await list(tele, '/api/report-status/'))).toEqual([row.id]);
    expect((await tele.post('/api/dicom-web/studies/', {})).statusCode).toBe(403);
  });

  it('answers 401 without a session', async () => {
    const res = await new TestClient(t.app).post('/api/dicom-web/studies/', {});
    expect(res.statusCode).toBe(401);
  });
});

describe('filters, sorting and paging', () => {
  let admin: TestClient;
  let rows: Record<'roy' | 'sen' | 'das' | 'old', number>;
  beforeAll(async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const base = { groupId: group.id, centerId: center.id };
    const roy = await createTestStudy({ ...base, patientName: 'ROY^ANNA', patientId: 'AB100' });
    const sen = await createTestStudy({
      ...base,
      patientName: 'SEN^RAVI',
      status: 'SIGNED_OFF',
      urgent: true,
    });
    const das = await createTestStudy({ ...base, patientName: 'DAS^ROYA', status: 'LOCKED', urgent: true });
    const old = await createTestStudy({
      ...base,
      patientName: 'BOSE^MIRA',
      createdAt: new Date('2024-03-10T12:00:00Z'),
    });
    rows = { roy: roy.row.id, sen: sen.row.id, das: das.row.id, old: old.row.id };
    admin = await signedIn({ roles: ['ROLE_ADMIN'], groupId: group.id });
  });

  it('filters by part of the patient name, case-insensitively', async () => {
    const page = await list(admin, '/api/dicom-web/studies/', { filters: { patientName: 'roy' } });
    expect(ids(page).sort()).toEqual([rows.roy, rows.das].sort());
  });

  it('filters by patient id, by a numeric id, and ignores a non-numeric id', async () => {
    expect(ids(await list(admin, '/api/dicom-web/studies/', { filters: { patientId: 'ab1' } }))).toEqual([
      rows.roy,
    ]);
    expect(ids(await list(admin, '/api/dicom-web/studies/', { filters: { id: String(rows.sen) } }))).toEqual([
      rows.sen,
    ]);
    const all = await list(admin, '/api/dicom-web/studies/', { filters: { id: 'x1' } });
    expect(all.totalElements).toBe(4);
  });

  it('filters by statuses and urgent', async () => {
    const signedOff = await list(admin, '/api/dicom-web/studies/', { statuses: ['SIGNED_OFF', 'LOCKED'] });
    expect(ids(signedOff).sort()).toEqual([rows.sen, rows.das].sort());
    const urgentOpen = await list(admin, '/api/report-status/', { showUrgent: true, statuses: ['LOCKED'] });
    expect(ids(urgentOpen)).toEqual([rows.das]);
    const pending = await list(admin, '/api/dicom-web/studies/', { showPending: true, showUrgent: true });
    expect(ids(pending)).toEqual([rows.das]);
  });

  it('filters by a date range on the creation date', async () => {
    const day = await list(admin, '/api/dicom-web/studies/', {
      startTime: '2024-03-10',
      endTime: '2024-03-10',
    });
    expect(ids(day)).toEqual([rows.old]);
    const before = await list(admin, '/api/dicom-web/studies/', { endTime: '2024-03-09' });
    expect(before.totalElements).toBe(0);
    const since = await list(admin, '/api/dicom-web/studies/', { startTime: '2024-03-11T00:00:00Z' });
    expect(since.totalElements).toBe(3);
  });

  it('sorts both ways by a whitelisted column', async () => {
    const asc = await list(admin, '/api/dicom-web/studies/', {
      orderingCriteria: 'patientName',
      sortOrder: 'ASC',
    });
    expect(asc.content.map((r) => r.patientName)).toEqual(['BOSE^MIRA', 'DAS^ROYA', 'ROY^ANNA', 'SEN^RAVI']);
    const desc = await list(admin, '/api/dicom-web/studies/', { orderingCriteria: 'createdAt' });
    expect(desc.content.at(-1)?.id).toBe(rows.old);
  });

  it('pages with totals', async () => {
    const first = await list(admin, '/api/dicom-web/studies/', { size: 3, orderingCriteria: 'id' });
    expect(first).toMatchObject({ totalElements: 4, totalPages: 2, number: 0, first: true, last: false });
    expect(first.numberOfElements).toBe(3);
    const second = await list(admin, '/api/dicom-web/studies/', { size: 3, page: 1, orderingCriteria: 'id' });
    expect(second).toMatchObject({ numberOfElements: 1, first: false, last: true });
    expect(ids(second)).toEqual([rows.roy]);
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ startTime: '31/01/2024' }, 'startTime'],
      [{ endTime: '2024-02-30' }, 'endTime'],
      [{ orderingCriteria: 'password' }, 'orderingCriteria'],
      [{ statuses: ['NOPE'] }, 'statuses'],
      [{ size: 0 }, 'size'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post('/api/dicom-web/studies/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
  });
});
