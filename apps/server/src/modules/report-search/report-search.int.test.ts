import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_TIME_ZONE,
  type TReportSearchAnswer,
  type TRole,
  type TStudyScope,
  calendarDayIn,
  nextCalendarDay,
  studyScopeOf,
} from '@radflow/core';
import {
  type TestApp,
  type TestClient,
  clockAtNoonIn,
  createTestApp,
  createTestCenter,
} from '../../../test/test-app.js';
import {
  addTestTag,
  createTestStudy,
  createTestWorld,
  signedInAt,
} from '../../../test/worklist-test-data.js';
import {
  type TSearchQuery,
  alternativesOf,
  readsDocumentsAlone,
  searchPage,
  wordsOf,
} from './report-search.repository.js';

/*
 * POST /api/query/search (issue 24 §2): full-text search over signed-off report text. Who sees what
 * is the study list's one access rule: a second center's and a second group's signed-off reports with
 * the same word are never counted nor shown; unsigned text is never found.
 */

let t: TestApp;
type TPlace = { group: { id: number }; center: { id: number } };
let home: TPlace;
let centerB: { id: number };
let other: TPlace;
let doctor: TestClient;
let doctorId: number;
let doctor2: TestClient;
let doctor2Id: number;
let centerUserA: TestClient;
let centerUserB: TestClient;
let admin: TestClient;
let typist: TestClient;
let otherDoctor: TestClient;
let otherDoctorId: number;

async function ok(res: Promise<{ statusCode: number; body: string }>, what: string) {
  const r = await res;
  expect(r.statusCode, `${what}: ${r.body}`).toBe(200);
  return r;
}

/** A study of the place's center, assigned to the doctor, reported and (unless told) signed off. */
async function reportStudy(
  place: TPlace,
  as: { browser: TestClient; id: number },
  html: string,
  opts: { signOff?: boolean; modalities?: string[]; centerId?: number } = {},
) {
  const { row } = await createTestStudy(t.db, {
    groupId: place.group.id,
    centerId: opts.centerId ?? place.center.id,
    patientName: 'ROE^ANNA',
    modalities: opts.modalities ?? ['MR'],
    studyDate: '20260310',
    studyTime: '101500',
    row: { studyName: 'MRI BRAIN', assignedToUserId: as.id, patientAge: '054Y', patientSex: 'F' },
  });
  await ok(as.browser.post(`/api/report/lock/${row.id}`, {}), 'lock');
  const saved = await ok(
    as.browser.post(`/api/report/save/${row.id}`, {
      name: 'MRI Brain',
      content: html,
      signOff: opts.signOff ?? true,
      baseVersion: null,
    }),
    'save',
  );
  return { id: row.id, savedVersion: JSON.parse(saved.body).savedVersion as number };
}

/** The doctor's report of `study` saved again with `html` and signed off (a re-sign-off). */
async function signOffAgain(study: { id: number; savedVersion: number }, html: string) {
  await ok(
    doctor.post(`/api/report/save/${study.id}`, {
      name: 'MRI Brain',
      content: html,
      signOff: true,
      baseVersion: study.savedVersion,
    }),
    'sign off again',
  );
}

async function search(browser: TestClient, body: Record<string, unknown>) {
  const res = await browser.post('/api/query/search', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReportSearchAnswer>();
}
/** A search of the home group as `userId` with `scope`, no filters but `rest`: the repository's own. */
const homeSearch = (
  scope: TStudyScope,
  userId: number,
  words: string[][],
  rest: Partial<TSearchQuery> = {},
): TSearchQuery => ({
  scope,
  viewer: { userId, groupId: home.group.id },
  words,
  modality: '',
  tag: '',
  from: null,
  to: null,
  offset: 0,
  limit: 20,
  ...rest,
});
const idsOf = (a: TReportSearchAnswer) => a.hits.hits.map((h) => h.id).sort((x, y) => x - y);

let mine: { id: number };
let colleagues: { id: number };
let unsigned: { id: number };
let otherGroups: { id: number };
let pancreas: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  // Sign-off days are days of the group's zone by the app's clock: today's reports stay today's.
  clockAtNoonIn(t, DEFAULT_DISPLAY_TIME_ZONE);
  home = await createTestWorld(t.db, { enableReportSearch: true, enableReportRework: true });
  centerB = await createTestCenter(t.db, { groupId: home.group.id });
  other = await createTestWorld(t.db, { enableReportSearch: true });
  const d = await signedInAt(t, home, ['ROLE_DOCTOR']);
  doctor = d.browser;
  doctorId = d.user.id;
  const d2 = await signedInAt(t, home, ['ROLE_DOCTOR']);
  doctor2 = d2.browser;
  doctor2Id = d2.user.id;
  centerUserA = (await signedInAt(t, home, ['ROLE_CENTER'])).browser;
  centerUserB = (await signedInAt(t, { group: home.group, center: centerB }, ['ROLE_CENTER'])).browser;
  admin = (await signedInAt(t, home, ['ROLE_ADMIN'])).browser;
  typist = (await signedInAt(t, home, ['ROLE_TYPIST'])).browser;
  const od = await signedInAt(t, other, ['ROLE_DOCTOR']);
  otherDoctor = od.browser;
  otherDoctorId = od.user.id;

  const me = { browser: doctor, id: doctorId };
  mine = await reportStudy(
    home,
    me,
    '<p>Findings: extra-axial lesion.</p><p>Impression: <strong>Meningioma</strong> of the left convexity.</p>',
  );
  colleagues = await reportStudy(
    home,
    { browser: doctor2, id: doctor2Id },
    '<p>Large meningioma along the falx.</p>',
    { centerId: centerB.id },
  );
  unsigned = await reportStudy(home, me, '<p>Meningioma suspected, awaiting comparison.</p>', {
    signOff: false,
  });
  otherGroups = await reportStudy(
    other,
    { browser: otherDoctor, id: otherDoctorId },
    '<p>Meningioma, parasagittal.</p>',
  );
  pancreas = await reportStudy(home, me, '<p>Acute pancreatitis with peripancreatic fluid.</p>', {
    modalities: ['CT'],
  });
});
afterAll(() => t.close());

describe('who sees which signed-off report', () => {
  it('a doctor finds their own signed-off report, with the §7 fields and the word marked', async () => {
    const answer = await search(doctor, { keywords: 'Meningioma' });
    expect(answer.hits.total).toEqual({ value: 1, relation: 'eq' });
    const [hit] = answer.hits.hits;
    expect(hit).toMatchObject({
      id: mine.id,
      modality: 'MR',
      patient_age: '054Y',
      patient_sex: 'F',
      api_version: 2,
      patient_name: 'ROE^ANNA',
      study_date: '2026-03-10 10:15:00',
      reportTag: [],
    });
    expect(hit?.study_instanceuid).toMatch(/^1\.2\./);
    // The report as text: HTML stripped, never the markup.
    expect(hit?.report_with_content).toEqual([
      {
        id: expect.any(Number),
        name: 'MRI Brain',
        content: 'Findings: extra-axial lesion. Impression: Meningioma of the left convexity.',
      },
    ]);
    expect(hit?.snippet.filter((p) => p.match).map((p) => p.text)).toEqual(['Meningioma']);
    expect(hit?.snippet.map((p) => p.text).join('')).not.toMatch(/<|>/);
  });

  it("another doctor's, another center's and another group's reports are never counted or shown", async () => {
    expect(idsOf(await search(doctor2, { keywords: 'meningioma' }))).toEqual([colleagues.id]);
    expect(idsOf(await search(centerUserA, { keywords: 'meningioma' }))).toEqual([mine.id]);
    const b = await search(centerUserB, { keywords: 'meningioma' });
    expect(b.hits.total.value).toBe(1);
    expect(idsOf(b)).toEqual([colleagues.id]);
    // The group's admin sees the group: both centers, not the other group, not the unsigned report.
    const all = await search(admin, { keywords: 'meningioma' });
    expect(all.hits.total.value).toBe(2);
    expect(idsOf(all)).toEqual([mine.id, colleagues.id].sort((x, y) => x - y));
    expect(idsOf(await search(otherDoctor, { keywords: 'meningioma' }))).toEqual([otherGroups.id]);
  });

  it('never finds a report that is not signed off', async () => {
    const all = await search(admin, { keywords: 'suspected comparison' });
    expect(all.hits.total.value).toBe(0);
    expect(idsOf(await search(doctor, { keywords: 'awaiting' }))).not.toContain(unsigned.id);
  });
});

describe('words', () => {
  it('finds other forms of a word (English stemming) and near misses of a misspelt one', async () => {
    expect(idsOf(await search(doctor, { keywords: 'meningiomas' }))).toEqual([mine.id]);
    expect(idsOf(await search(doctor, { keywords: 'menigioma' }))).toEqual([mine.id]);
    expect(idsOf(await search(doctor, { keywords: 'pancreatits' }))).toEqual([pancreas.id]);
  });

  it('reads a misspelt word as words a few edits away, not as every word sharing its trigrams', async () => {
    // A group of its own, so its vocabulary is these two reports': 'pancreas' shares half the
    // trigrams of 'pancreatits' but is three edits from it; 'pancreatitis' is one.
    const place = await createTestWorld(t.db, { enableReportSearch: true });
    const d = await signedInAt(t, place, ['ROLE_DOCTOR']);
    const as = { browser: d.browser, id: d.user.id };
    const inflamed = await reportStudy(place, as, '<p>Acute pancreatitis.</p>');
    const organ = await reportStudy(place, as, '<p>The pancreas is normal in bulk.</p>');
    expect(idsOf(await search(d.browser, { keywords: 'pancreatits' }))).toEqual([inflamed.id]);
    expect(idsOf(await search(d.browser, { keywords: 'pancraes' }))).toEqual([organ.id]);
  });

  it('needs every word of the keywords', async () => {
    expect(idsOf(await search(doctor, { keywords: 'acute pancreatitis' }))).toEqual([pancreas.id]);
    expect(idsOf(await search(doctor, { keywords: 'acute meningioma' }))).toEqual([]);
  });
});

describe('filters and paging', () => {
  it('modality and tag narrow the search', async () => {
    expect(idsOf(await search(doctor, { keywords: 'pancreatitis', modality: 'CT' }))).toEqual([pancreas.id]);
    expect(idsOf(await search(doctor, { keywords: 'pancreatitis', modality: 'mr' }))).toEqual([]);
    await addTestTag(t.db, {
      groupId: home.group.id,
      reportStatusId: pancreas.id,
      tag: 'Teaching',
      globalTag: true,
    });
    // A local tag of someone else is not the caller's to filter by.
    await addTestTag(t.db, {
      groupId: home.group.id,
      reportStatusId: mine.id,
      tag: 'Teaching2',
      createdByUserId: doctor2Id,
    });
    const tagged = await search(doctor, { tag: 'teaching' });
    expect(idsOf(tagged)).toEqual([pancreas.id]);
    expect(tagged.hits.hits[0]?.reportTag).toEqual([
      { id: expect.any(Number), tag: 'Teaching', globalTag: true, createdBy: '' },
    ]);
    expect(idsOf(await search(doctor, { tag: 'Teaching2' }))).toEqual([]);
  });

  it('dates are signed-off days of the group display zone (+05:30)', async () => {
    // Signed off at 18:45Z on 9 March: 00:15 on 10 March in +05:30.
    const back = t.app.ctx.now().getTime() - Date.parse('2026-03-09T18:45:00Z');
    t.clock.now = new Date(t.clock.now.getTime() - back);
    const late = await reportStudy(
      home,
      { browser: doctor, id: doctorId },
      '<p>Osteochondroma of the distal femur.</p>',
    );
    t.clock.now = new Date(t.clock.now.getTime() + back);
    expect(
      idsOf(
        await search(doctor, { keywords: 'osteochondroma', startTime: '2026-03-10', endTime: '2026-03-10' }),
      ),
    ).toEqual([late.id]);
    expect(idsOf(await search(doctor, { keywords: 'osteochondroma', endTime: '2026-03-09' }))).toEqual([]);
    expect(idsOf(await search(doctor, { keywords: 'osteochondroma', startTime: '2026-03-11' }))).toEqual([]);
    const today = calendarDayIn(t.app.ctx.now());
    expect(
      idsOf(
        await search(doctor, { keywords: 'pancreatitis', startTime: today, endTime: nextCalendarDay(today) }),
      ),
    ).toEqual([pancreas.id]);
  });

  it('pages of 20 or 50, newest sign-off first, counted in full', async () => {
    const me = { browser: doctor, id: doctorId };
    const made: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      made.push((await reportStudy(home, me, `<p>Hepatocellular carcinoma, lesion ${i + 1}.</p>`)).id);
    }
    const first = await search(doctor, { keywords: 'hepatocellular carcinoma' });
    expect(first.hits.total).toEqual({ value: 21, relation: 'eq' });
    expect(first.hits.hits.map((h) => h.id)).toEqual([...made].reverse().slice(0, 20));
    const second = await search(doctor, { keywords: 'hepatocellular carcinoma', page: 1 });
    expect(second.hits.hits.map((h) => h.id)).toEqual([made[0]]);
    expect((await search(doctor, { keywords: 'hepatocellular', size: 50 })).hits.hits).toHaveLength(21);
  });
});

describe('the plans (DECISIONS.md "Plans")', () => {
  it('answer the same rows and count for every caller and filter', async () => {
    const callers: Array<{ id: number; roles: TRole[]; centerId: number | null }> = [
      { id: doctorId, roles: ['ROLE_DOCTOR'], centerId: null },
      { id: doctor2Id, roles: ['ROLE_DOCTOR'], centerId: null },
      { id: 0, roles: ['ROLE_CENTER'], centerId: home.center.id },
      { id: 0, roles: ['ROLE_CENTER'], centerId: centerB.id },
      { id: 0, roles: ['ROLE_ADMIN'], centerId: null },
    ];
    const searches: Array<Partial<TSearchQuery> & { keywords: string }> = [
      { keywords: 'meningioma' },
      { keywords: 'menigioma' },
      { keywords: 'acute pancreatitis' },
      { keywords: 'pancreatitis', modality: 'CT' },
      { keywords: 'pancreatitis', modality: 'MR' },
      { keywords: 'hepatocellular carcinoma', offset: 20, limit: 20 },
      { keywords: 'hepatocellular', limit: 50 },
      { keywords: 'carcinoma', tag: 'teaching' },
      {
        keywords: 'lesion',
        from: new Date('2026-03-10T00:00:00Z'),
        to: new Date(t.app.ctx.now().getTime() + 86_400_000),
      },
    ];
    // A second doctor with three of the group's four meningiomas: the first two matches the index
    // gives are not all theirs, so a count past the limit cannot be read off those two.
    const second = { browser: doctor2, id: doctor2Id };
    await reportStudy(home, second, '<p>Meningioma, recurrent.</p>');
    await reportStudy(home, second, '<p>Meningioma of the tentorium.</p>');
    // Unlocked: its text stays, and no plan finds it.
    const unlocked = await reportStudy(home, second, '<p>Meningioma, unlocked for a second look.</p>');
    await ok(admin.post(`/api/report-status/unlock/${unlocked.id}`, {}), 'unlock');
    let found = 0;
    let morePast = 0;
    for (const caller of callers) {
      const scope = studyScopeOf({ ...caller, groupId: home.group.id, mobileNumber: null });
      for (const { keywords, ...rest } of searches) {
        const words = await alternativesOf(t.db, home.group.id, wordsOf(keywords));
        const q = homeSearch(scope, caller.id, words, rest);
        const told = `${caller.roles[0]} ${caller.id || caller.centerId}: ${keywords}`;
        const rare = { rareWordEstimate: Number.POSITIVE_INFINITY };
        const walk = await searchPage(t.db, q, { rareWordEstimate: -1 });
        expect(await searchPage(t.db, q, rare), told).toEqual(walk);
        // A caller the documents alone answer gets what the rows' plan gives.
        expect(await searchPage(t.db, q, { rareWordEstimate: -1, rowsRead: true }), told).toEqual(walk);
        expect(await searchPage(t.db, q, { ...rare, rowsRead: true }), told).toEqual(walk);
        expect(
          walk.rows.map((r) => r.id),
          told,
        ).not.toContain(unlocked.id);
        found += walk.rows.length;
        // Past the count's limit (1 here: 'more than one'), the same page and the same 'more'.
        const past = { totalLimit: 1 };
        const walkPast = await searchPage(t.db, q, { rareWordEstimate: -1, ...past });
        for (const rowsRead of [false, true]) {
          expect(await searchPage(t.db, q, { rareWordEstimate: -1, ...past, rowsRead }), told).toEqual(
            walkPast,
          );
          expect(await searchPage(t.db, q, { ...rare, ...past, rowsRead }), told).toEqual(walkPast);
        }
        expect(walkPast.total, told).toBe(Math.min(walk.total, 2));
        morePast += walkPast.total > 1 ? 1 : 0;
      }
    }
    // Not a comparison of two empty answers, and the limit was passed.
    expect(found).toBeGreaterThan(20);
    expect(morePast).toBeGreaterThan(5);
  });

  it('the documents alone answer only a caller who sees the whole group (no modality or tag)', () => {
    const q = (roles: TRole[], filters: Partial<TSearchQuery> = {}) =>
      homeSearch(
        studyScopeOf({ id: doctorId, roles, centerId: null, groupId: home.group.id, mobileNumber: null }),
        doctorId,
        [['normal']],
        filters,
      );
    expect(readsDocumentsAlone(q(['ROLE_ADMIN']))).toBe(true);
    expect(readsDocumentsAlone(q(['ROLE_ADMIN'], { from: new Date('2026-01-01') }))).toBe(true);
    expect(readsDocumentsAlone(q(['ROLE_ADMIN'], { modality: 'CT' }))).toBe(false);
    expect(readsDocumentsAlone(q(['ROLE_ADMIN'], { tag: 'teaching' }))).toBe(false);
    expect(readsDocumentsAlone(q(['ROLE_DOCTOR']))).toBe(false);
  });
});

describe('one partition per group (DECISIONS.md)', () => {
  it("a group's signed-off text is kept in its own partition, made when the group was", async () => {
    const partitionOf = async (id: number) => {
      const result = await t.db.execute(
        sql`select tableoid::regclass::text as part from report_search_documents where report_status_id = ${id}`,
      );
      return (result as unknown as { rows: Array<{ part: string }> }).rows.map((r) => r.part);
    };
    expect(await partitionOf(mine.id)).toEqual([`report_search_documents_g${home.group.id}`]);
    expect(await partitionOf(otherGroups.id)).toEqual([`report_search_documents_g${other.group.id}`]);
    // A group made after the migration: its partition comes with it, whichever way it is made.
    const later = await createTestWorld(t.db, { enableReportSearch: true });
    const d = await signedInAt(t, later, ['ROLE_DOCTOR']);
    const study = await reportStudy(later, { browser: d.browser, id: d.user.id }, '<p>Meningioma.</p>');
    expect(await partitionOf(study.id)).toEqual([`report_search_documents_g${later.group.id}`]);
    expect(idsOf(await search(d.browser, { keywords: 'meningioma' }))).toEqual([study.id]);
  });
});

describe('the search text follows the report', () => {
  it('a re-sign-off replaces the text, an addendum adds to it, a rework removes it', async () => {
    const me = { browser: doctor, id: doctorId };
    const study = await reportStudy(home, me, '<p>Small aneurysm of the anterior communicating artery.</p>');
    expect(idsOf(await search(doctor, { keywords: 'aneurysm' }))).toEqual([study.id]);
    await signOffAgain(study, '<p>A V malformation of the left parietal lobe.</p>');
    expect(idsOf(await search(doctor, { keywords: 'aneurysm' }))).toEqual([]);
    expect(idsOf(await search(doctor, { keywords: 'malformation' }))).toEqual([study.id]);
    await ok(
      doctor.post(`/api/report/addendum/${study.id}`, { content: '<p>Liver abscess noted.</p>' }),
      'addendum',
    );
    expect(idsOf(await search(doctor, { keywords: 'abscess' }))).toEqual([study.id]);
    expect(idsOf(await search(doctor, { keywords: 'malformation' }))).toEqual([study.id]);
    await ok(doctor.post(`/api/report-status/rework/${study.id}`, {}), 'rework');
    expect(idsOf(await search(admin, { keywords: 'abscess' }))).toEqual([]);
    expect(idsOf(await search(admin, { keywords: 'malformation' }))).toEqual([]);
  });
});

describe('a study that is not signed off now', () => {
  it('is not found while unlocked, though its text stays, and is again once signed off', async () => {
    const me = { browser: doctor, id: doctorId };
    const study = await reportStudy(home, me, '<p>Craniopharyngioma with calcification.</p>');
    const found = async () => ({
      admin: idsOf(await search(admin, { keywords: 'craniopharyngioma' })),
      doctor: idsOf(await search(doctor, { keywords: 'craniopharyngioma' })),
    });
    expect(await found()).toEqual({ admin: [study.id], doctor: [study.id] });
    await ok(admin.post(`/api/report-status/unlock/${study.id}`, {}), 'unlock');
    expect(await found()).toEqual({ admin: [], doctor: [] });
    await ok(doctor.post(`/api/report/lock/${study.id}`, {}), 'lock');
    await signOffAgain(study, '<p>Craniopharyngioma with calcification.</p>');
    expect(await found()).toEqual({ admin: [study.id], doctor: [study.id] });
  });

  it('whatever changes its status, its text follows (the database keeps the flag)', async () => {
    const me = { browser: doctor, id: doctorId };
    const study = await reportStudy(home, me, '<p>Ependymoma of the fourth ventricle.</p>');
    const flag = async () => {
      const result = await t.db.execute(
        sql`select row_signed_off from report_search_documents where report_status_id = ${study.id}`,
      );
      return (result as unknown as { rows: Array<{ row_signed_off: boolean }> }).rows.map(
        (r) => r.row_signed_off,
      );
    };
    expect(await flag()).toEqual([true]);
    // A status written by any statement, not only the unlock's service.
    await t.db.execute(sql`update report_statuses set status = 'HISTORY_CREATED' where id = ${study.id}`);
    expect(await flag()).toEqual([false]);
    // A text written while the row is not signed off is not found either.
    await t.db.execute(
      sql`update report_search_documents set content = content || ' Rewritten.' where report_status_id = ${study.id}`,
    );
    expect(await flag()).toEqual([false]);
    await t.db.execute(sql`update report_statuses set status = 'SIGNED_OFF' where id = ${study.id}`);
    expect(await flag()).toEqual([true]);
    // Moved to another group: not the old group's to find.
    await t.db.execute(sql`update report_statuses set group_id = ${other.group.id} where id = ${study.id}`);
    expect(await flag()).toEqual([false]);
    expect(idsOf(await search(admin, { keywords: 'ependymoma' }))).toEqual([]);
  });
});

describe('who may search, and bad input', () => {
  it('a role without Report Search in its menu is refused (403)', async () => {
    const res = await typist.post('/api/query/search', { keywords: 'meningioma' });
    expect(res.statusCode).toBe(403);
  });

  it("a group with enableReportSearch off is refused (403 'You are not allowed to view this page')", async () => {
    const off = await createTestWorld(t.db);
    const { browser } = await signedInAt(t, off, ['ROLE_DOCTOR']);
    const res = await browser.post('/api/query/search', { keywords: 'meningioma' });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ errorDescription: string }>().errorDescription).toBe(
      'You are not allowed to view this page',
    );
  });

  it.each([
    [{ size: 30 }, 'size'],
    [{ page: -1 }, 'page'],
    [{ startTime: '2026-02-30' }, 'startTime'],
    [{ endTime: 'yesterday' }, 'endTime'],
    [{ startTime: '2026-03-02', endTime: '2026-03-01' }, 'endTime'],
    [{ keywords: 'x'.repeat(201) }, 'keywords'],
    [{ modality: "CT' or 1=1" }, 'modality'],
  ])('%j is a 400 naming %s', async (body, field) => {
    const res = await doctor.post('/api/query/search', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ additionalInfo: string }>().additionalInfo).toBe(field);
  });
});
