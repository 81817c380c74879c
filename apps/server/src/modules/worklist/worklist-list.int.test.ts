import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TReportStatus,
  type TRole,
  type TStudyListPage,
  ZStudyListPage,
  ZStudyListRow,
  tabsForList,
} from '@radflow/core';
import type { reportStatuses } from '../../db/schema.js';
import { EXACT_COUNT_LIMIT } from '../../db/estimated-total.js';
import {
  type TestApp,
  TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  createTestUser,
} from '../../../test/test-app.js';
import {
  addTestTag,
  createTestStudy as createStudy,
  idsOf,
  list,
  signedIn as signedInAs,
} from '../../../test/worklist-test-data.js';

const STUDIES = '/api/dicom-web/studies/';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A study and its report row with the status, urgency and creation time the case needs. */
function createTestStudy(opts: {
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
  row?: Partial<typeof reportStatuses.$inferInsert>;
}) {
  const { status, urgent, createdAt, row, ...rest } = opts;
  return createStudy(t.db, {
    ...rest,
    row: {
      status: status ?? 'CREATED',
      urgent: urgent ?? false,
      ...(createdAt ? { createdAt } : {}),
      ...row,
    },
  });
}

async function signedIn(opts: { roles: TRole[]; groupId: number; centerId?: number | null }) {
  return (await signedInAs(t, opts)).browser;
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
      centerId: north.id,
      radiologyCenter: 'North Imaging',
      centerEmail: north.email,
      tags: [],
    });

    const southUser = await signedIn({ roles: ['ROLE_CENTER'], groupId: group.id, centerId: south.id });
    expect(ids(await list(southUser, '/api/report-status/'))).toEqual([b.row.id]);

    const admin = await signedIn({ roles: ['ROLE_ADMIN'], groupId: group.id });
    expect(ids(await list(admin, '/api/dicom-web/studies/'))).toEqual([b.row.id, a.row.id]);
    expect(ids(await list(admin, '/api/report-status/'))).toEqual([b.row.id, a.row.id]);
    // Group staff name the row's center to forward it (its PACS list is the center's).
    expect((await list(admin, STUDIES)).content.map((r) => r.centerId)).toEqual([south.id, north.id]);
  });

  it('gives a referring doctor an empty page when nothing was shared with them, and roles without a list a 403', async () => {
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
    // Every row names its patient id: a random one ("P3ab1f0") could match the 'ab1' filter.
    const roy = await createTestStudy({ ...base, patientName: 'ROY^ANNA', patientId: 'AB100' });
    const sen = await createTestStudy({
      ...base,
      patientName: 'SEN^RAVI',
      patientId: 'CD200',
      status: 'SIGNED_OFF',
      urgent: true,
    });
    const das = await createTestStudy({
      ...base,
      patientName: 'DAS^ROYA',
      patientId: 'EF300',
      status: 'LOCKED',
      urgent: true,
    });
    const old = await createTestStudy({
      ...base,
      patientName: 'BOSE^MIRA',
      patientId: 'GH400',
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
    const beyond = await list(admin, '/api/dicom-web/studies/', { size: 3, page: 5 });
    expect(beyond).toMatchObject({ totalElements: 4, numberOfElements: 0, empty: true });
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

describe('tab filters, the new columns and the full row', () => {
  let admin: Awaited<ReturnType<typeof signedInAs>>;
  let doctor: Awaited<ReturnType<typeof signedInAs>>;
  let groupId: number;
  let rows: Record<'mine' | 'theirs' | 'open' | 'reprint' | 'signedOff' | 'split', number>;

  beforeAll(async () => {
    const group = await createTestGroup(t.db);
    groupId = group.id;
    const center = await createTestCenter(t.db, { groupId, name: 'East Scan' });
    admin = await signedInAs(t, { roles: ['ROLE_ADMIN', 'ROLE_DOCTOR'], groupId });
    doctor = await signedInAs(t, { roles: ['ROLE_DOCTOR'], groupId });
    const auditor = await createTestUser(t.db, { roles: ['ROLE_AUDITOR'], groupId });
    const base = { groupId, centerId: center.id };
    const mine = await createTestStudy({
      ...base,
      status: 'LOCKED',
      row: {
        assignedToUserId: admin.user.id,
        lockedByUserId: admin.user.id,
        department: 'Cardiology',
        studyParts: ['CT CHEST', 'CT ABDOMEN'],
      },
    });
    const theirs = await createTestStudy({
      ...base,
      status: 'HISTORY_CREATED',
      row: { assignedToUserId: doctor.user.id, department: 'Neurology' },
    });
    const open = await createTestStudy({ ...base, status: 'CREATED', urgent: true });
    const reprint = await createTestStudy({
      ...base,
      status: 'SIGNED_OFF',
      row: { assignedToUserId: doctor.user.id, signedOffAfterPrint: true, auditorUserId: auditor.id },
    });
    const signedOff = await createTestStudy({
      ...base,
      status: 'SIGNED_OFF',
      row: { assignedToUserId: admin.user.id, signedOffAt: new Date('2026-01-02T03:04:05Z') },
    });
    const split = await createTestStudy({ ...base, row: { splitFromReportStatusId: signedOff.row.id } });
    rows = {
      mine: mine.row.id,
      theirs: theirs.row.id,
      open: open.row.id,
      reprint: reprint.row.id,
      signedOff: signedOff.row.id,
      split: split.row.id,
    };
    await addTestTag(t.db, {
      groupId,
      reportStatusId: rows.mine,
      tag: 'follow-up',
      // Local tags show only to their creator: the admin who reads these rows made them.
      createdByUserId: admin.user.id,
    });
    await addTestTag(t.db, { groupId, reportStatusId: rows.mine, tag: 'teaching', globalTag: true });
    await addTestTag(t.db, {
      groupId,
      reportStatusId: rows.theirs,
      tag: 'Teaching file',
      createdByUserId: admin.user.id,
    });
  });

  const sorted = (...keys: Array<keyof typeof rows>) => keys.map((k) => rows[k]).sort((a, b) => a - b);
  /** The admin tab's filter as the browser sends it (assignedTos 'ME' as a list). */
  const adminTab = (key: string) => {
    const { assignedTos, ...filter } = tabsForList('admin').find((tab) => tab.key === key)?.filter ?? {};
    return { ...filter, ...(assignedTos ? { assignedTos: [assignedTos] } : {}) };
  };

  it('applies the admin tabs: Unassigned, Assigned, Reprint Needed, My Reports, My Pending', async () => {
    const b = admin.browser;
    expect(idsOf(await list(b, STUDIES, adminTab('unassigned')))).toEqual(sorted('open', 'split'));
    expect(idsOf(await list(b, STUDIES, adminTab('assigned')))).toEqual(sorted('mine', 'theirs'));
    expect(idsOf(await list(b, STUDIES, adminTab('reprintNeeded')))).toEqual(sorted('reprint'));
    expect(idsOf(await list(b, STUDIES, adminTab('myReports')))).toEqual(sorted('signedOff'));
    expect(idsOf(await list(b, STUDIES, adminTab('myPending')))).toEqual(sorted('mine'));
  });

  it('narrows to the e-mails of assignedTos, and to open statuses with showPending', async () => {
    const b = admin.browser;
    const theirs = await list(b, STUDIES, { assignedTos: [doctor.user.email.toUpperCase()] });
    expect(idsOf(theirs)).toEqual(sorted('theirs', 'reprint'));
    const both = await list(b, STUDIES, { assignedTos: ['ME', doctor.user.email], showPending: true });
    expect(idsOf(both)).toEqual(sorted('mine', 'theirs'));
    expect((await list(b, STUDIES, { assignedTos: ['nobody@test.local'] })).totalElements).toBe(0);
  });

  it('filters by assignee, auditor, tag, department, study type and status text', async () => {
    const b = admin.browser;
    const filter = async (filters: Record<string, string>) => idsOf(await list(b, STUDIES, { filters }));
    // Part of the e-mail: its distinctive tail (test e-mails share a timestamp prefix).
    const doctorPart = doctor.user.email.split('@')[0]!.slice(-7);
    expect(await filter({ assignedTo: doctorPart })).toEqual(sorted('theirs', 'reprint'));
    expect(await filter({ auditor: '@test.local' })).toEqual(sorted('reprint'));
    expect(await filter({ tags: 'teach' })).toEqual(sorted('mine', 'theirs'));
    expect(await filter({ tags: '100%' })).toEqual([]);
    expect(await filter({ department: 'neuro' })).toEqual(sorted('theirs'));
    expect(await filter({ reportStudyPart: 'abdomen' })).toEqual(sorted('mine'));
    expect(await filter({ status: 'history' })).toEqual(sorted('theirs'));
    expect(await filter({ radiologyCenter: 'east', department: 'cardio' })).toEqual(sorted('mine'));
  });

  it('sorts by the assignee e-mail', async () => {
    const page = await list(admin.browser, STUDIES, {
      orderingCriteria: 'assignedTo',
      sortOrder: 'ASC',
      assignedTos: ['ME', doctor.user.email],
    });
    const emails = page.content.map((r) => r.assignedTo);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails)).toEqual(new Set([admin.user.email, doctor.user.email]));
  });

  it('answers the full row: people as e-mails, tags with their creator, split and dates', async () => {
    const page = await list(admin.browser, STUDIES, { size: 50 });
    // The database writes the rows' JSON: each is exactly a ZStudyListRow, no field more or less.
    expect(() => ZStudyListPage.parse(page)).not.toThrow();
    for (const row of page.content)
      expect(Object.keys(ZStudyListRow.strict().parse(row)).sort()).toEqual(Object.keys(row).sort());
    const byId = new Map(page.content.map((r) => [r.id, r]));
    expect(byId.get(rows.mine)).toMatchObject({
      assignedTo: admin.user.email,
      assignedToName: admin.user.identifier,
      lockedBy: admin.user.email,
      department: 'Cardiology',
      reportStudyPart: ['CT CHEST', 'CT ABDOMEN'],
      hasReports: false,
      attachmentCount: { history: 0, film: 0, report: 0 },
      tags: [
        { tag: 'follow-up', globalTag: false, createdBy: admin.user.email, reportStatusId: rows.mine },
        { tag: 'teaching', globalTag: true, createdBy: '', reportStatusId: rows.mine },
      ],
    });
    expect(byId.get(rows.reprint)).toMatchObject({ signedOffAfterPrint: true, auditStatus: null });
    expect(byId.get(rows.signedOff)).toMatchObject({
      hasSplitChild: true,
      signedOffAt: '2026-01-02T03:04:05.000Z',
    });
    expect(byId.get(rows.split)).toMatchObject({
      hasSplitChild: false,
      splitFromReportStatusId: rows.signedOff,
    });
    expect(byId.get(rows.open)).toMatchObject({ assignedTo: null, urgent: true, tags: [] });
  });
});

describe('the total of a big list', () => {
  it(`counts up to ${EXACT_COUNT_LIMIT} matches exactly and estimates beyond, exact again at the end`, async () => {
    const group = await createTestGroup(t.db);
    const center = await createTestCenter(t.db, { groupId: group.id });
    const { study, row } = await createTestStudy({
      groupId: group.id,
      centerId: center.id,
      status: 'LOCKED',
    });
    const admin = await signedIn({ roles: ['ROLE_ADMIN'], groupId: group.id });
    const extra = EXACT_COUNT_LIMIT + 50;
    // One study each: a study has one row (archive DECISIONS.md "one row per study").
    await t.db.execute(
      sql`with made as (
            insert into studies (group_id, center_id, study_instance_uid)
            select ${group.id}, ${center.id}, '2.25.' || ${study.id} || '.' || n from generate_series(1, ${extra}) n
            returning id)
          insert into report_statuses (study_id, group_id, center_id, status)
          select made.id, ${group.id}, ${center.id}, 'SIGNED_OFF' from made`,
    );
    const matches = extra + 1;

    // Before and after the planner's statistics know the rows: whichever way the call goes (counted
    // up to the cap, or the estimate), a big list says "more than the cap" and pages normally.
    for (const analyzed of [false, true]) {
      if (analyzed) await t.db.execute(sql`analyze report_statuses`);
      const first = await list(admin, STUDIES, { sortOrder: 'ASC' });
      expect(first.totalElements).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expect(first.numberOfElements).toBe(20);
      expect(first.content.map((r) => r.id)[0]).toBe(row.id);
      expect((await list(admin, STUDIES, { statuses: ['LOCKED'] })).totalElements).toBe(1);

      // A full page always leaves Next on; the short last page and a page past it know the total.
      const lastPage = Math.floor(matches / 20);
      const beforeLast = await list(admin, STUDIES, { page: lastPage - 1 });
      expect(beforeLast.numberOfElements).toBe(20);
      expect(beforeLast.totalElements).toBeGreaterThan(lastPage * 20);
      const last = await list(admin, STUDIES, { page: lastPage });
      expect(last).toMatchObject({ totalElements: matches, numberOfElements: matches % 20, last: true });
      const beyond = await list(admin, STUDIES, { page: lastPage + 3 });
      expect(beyond).toMatchObject({ totalElements: matches, numberOfElements: 0 });
    }
  });
});
