import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES, type TPreferenceSection, type TRole, defaultPreferences } from '@radflow/core';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
  setGroupPreference,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * Settings sections of issue 6 §2/§4 through POST /api/setting/update… : a good save answers the
 * section and is kept; each bad value answers 400 with the spec's message and changes nothing; a role
 * without the settings entry (spec-lab §6) gets 403.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedInAs(roles: TRole[], groupId?: number) {
  const group = groupId ?? (await createTestGroup(t.db)).id;
  const center = roles.includes('ROLE_CENTER') ? await createTestCenter(t.db, { groupId: group }) : null;
  return (await signedIn(t, { roles, groupId: group, centerId: center?.id ?? null })).browser;
}

async function sectionOf(browser: TestClient, section: TPreferenceSection): Promise<unknown> {
  const res = await browser.get('/api/user/preference');
  expect(res.statusCode).toBe(200);
  return (res.json() as Record<string, unknown>)[section];
}

interface Case {
  section: TPreferenceSection;
  role: TRole;
  good: Record<string, unknown>;
  saved: Record<string, unknown>;
  bad: [Record<string, unknown>, string][];
  forbidden: TRole;
}

const M = SETTINGS_MESSAGES;
const CASES: Case[] = [
  {
    section: 'SERIES_NAME',
    role: 'ROLE_CENTER',
    good: { seriesMappings: [{ seriesName: 'AX T2', preferredName: 'Axial T2' }] },
    saved: { seriesMappings: [{ seriesName: 'AX T2', preferredName: 'Axial T2' }] },
    bad: [
      [
        {
          seriesMappings: [
            { seriesName: 'T1', preferredName: 'a' },
            { seriesName: 'T1', preferredName: 'b' },
          ],
        },
        'This series name already exists. Delete the previous entry to make new entry.',
      ],
      [{ seriesMappings: [{ seriesName: 'T1', preferredName: '' }] }, M.seriesNamesRequired],
    ],
    forbidden: 'ROLE_DOCTOR',
  },
  {
    section: 'TAGS',
    role: 'ROLE_DOCTOR',
    good: { tags: ['Urgent', 'Followup2'] },
    saved: { tags: ['Urgent', 'Followup2'] },
    bad: [[{ tags: ['ok', 'not ok'] }, 'No special characters or spaces allowed!']],
    forbidden: 'ROLE_CENTER_CUSTOMER',
  },
  {
    section: 'LAB_DEPARTMENTS',
    role: 'ROLE_CENTER',
    good: { labDepartmentList: [' radiology ', 'Cardio'], referringDoctorDepartmentList: ['ortho'] },
    saved: { labDepartmentList: ['RADIOLOGY', 'CARDIO'], referringDoctorDepartmentList: ['ORTHO'] },
    bad: [
      [
        { labDepartmentList: ['RADIOLOGY', 'CARDIO', 'cardio '] },
        'Department with the same name already exists.',
      ],
      [{ referringDoctorDepartmentList: ['ORTHO', 'None'] }, 'Department name cannot be "NONE".'],
      // Departments cannot be deleted: a list that leaves one out is refused.
      [{ labDepartmentList: ['RADIOLOGY'] }, M.departmentCannotBeDeleted],
    ],
    forbidden: 'ROLE_LABS_RECEPTIONIST',
  },
  {
    section: 'LAB_CATEGORY_PRIORITY',
    role: 'ROLE_CENTER',
    good: {
      categoriesAndPriorities: [
        { name: 'Senior', discount: '10', type: 'PATIENT_CATEGORY' },
        { name: 'Stat', discount: 0, type: 'PRIORITY', disabled: true },
      ],
    },
    saved: {
      categoriesAndPriorities: [
        { name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY', disabled: false },
        { name: 'Stat', discount: 0, type: 'PRIORITY', disabled: true },
      ],
    },
    bad: [
      [
        { categoriesAndPriorities: [{ name: 'Staff', discount: -5, type: 'PATIENT_CATEGORY' }] },
        'Discount must be a valid numeric value and cannot be negative. Please enter a value of 0 or greater.',
      ],
      [
        { categoriesAndPriorities: [{ name: 'none', discount: 0, type: 'PATIENT_CATEGORY' }] },
        M.categoryNone,
      ],
      [
        {
          categoriesAndPriorities: [
            { name: 'Staff', discount: 0, type: 'PATIENT_CATEGORY' },
            { name: 'STAFF', discount: 1, type: 'PATIENT_CATEGORY' },
          ],
        },
        M.categoryDuplicate,
      ],
    ],
    forbidden: 'ROLE_DOCTOR',
  },
  {
    section: 'EDITOR_PREFERENCES',
    role: 'ROLE_DOCTOR',
    good: { defaultEditorFontSize: 16, defaultEditorFontFamily: 'Georgia', hideReportPreview: true },
    saved: {
      defaultEditorFontSize: 16,
      defaultEditorFontFamily: 'Georgia',
      hideReportPreview: true,
      showImagesInPrintPreview: false,
    },
    bad: [
      [{ defaultEditorFontSize: 15 }, M.fontSizeInvalid],
      [{ defaultEditorFontFamily: 'Papyrus' }, M.fontFamilyInvalid],
    ],
    forbidden: 'ROLE_CENTER_CUSTOMER',
  },
  {
    section: 'REPORT_TEXT',
    role: 'ROLE_CENTER_CUSTOMER',
    good: { header: '<h1>Clinic</h1>', disclaimer: '<p>Not for legal use</p>' },
    saved: { header: '<h1>Clinic</h1>', footer: '', disclaimer: '<p>Not for legal use</p>' },
    bad: [[{ footer: 'x'.repeat(100_001) }, M.reportTextTooLong]],
    forbidden: 'ROLE_BILLER',
  },
  {
    section: 'USER_INFORMATION',
    role: 'ROLE_DOCTOR',
    good: { email: 'Desk@Clinic.in', mobileNumber: '9876543210', gstNumber: '27aapfu0939f1zv' },
    saved: {
      email: 'desk@clinic.in',
      mobileNumber: '9876543210',
      address: '',
      gstNumber: '27AAPFU0939F1ZV',
      disclaimer: '',
      centerImage: '',
      copyLinkTitleText: '',
    },
    bad: [
      [{ mobileNumber: '1234567890' }, M.mobileInvalid],
      [{ email: 'desk' }, M.emailInvalid],
    ],
    forbidden: 'ROLE_LABS_SUPERVISOR',
  },
  {
    section: 'BILLING_DETAILS',
    role: 'ROLE_BILLER',
    good: {
      logo: '/api/assets/0123456789abcdef0123456789abcdef',
      accName: ' Radflow Diagnostics ',
      bankName: 'State Bank',
      bankAccount: '001234567890',
      bankIFSC: ' sbin0001234 ',
      bankBranch: 'MG Road',
      pan: 'abcde1234f',
      gstNumber: '27aapfu0939f1zv',
      gstPercentage: 18,
    },
    saved: {
      logo: '/api/assets/0123456789abcdef0123456789abcdef',
      accName: 'Radflow Diagnostics',
      bankName: 'State Bank',
      bankAccount: '001234567890',
      bankIFSC: 'SBIN0001234',
      bankBranch: 'MG Road',
      pan: 'ABCDE1234F',
      gstNumber: '27AAPFU0939F1ZV',
      gstPercentage: 18,
    },
    bad: [
      [{ gstPercentage: 100.5 }, M.gstPercentageInvalid],
      [{ gstPercentage: -1 }, M.gstPercentageInvalid],
      [{ gstPercentage: '18' }, M.gstPercentageInvalid],
      [{ pan: 'ABCD12345F' }, M.panInvalid],
      [{ bankIFSC: 'SBIN1001234' }, M.ifscInvalid],
      [{ bankAccount: '12345' }, M.bankAccountInvalid],
      [{ bankAccount: '12345678901234567890123' }, M.bankAccountInvalid],
      [{ bankAccount: '1234-5678' }, M.bankAccountInvalid],
      [{ logo: 'javascript:alert(1)' }, M.logoInvalid],
      [{ logo: `https://x.in/${'a'.repeat(1000)}` }, M.logoInvalid],
    ],
    forbidden: 'ROLE_DOCTOR',
  },
];

describe.each(CASES)('POST /api/setting/update/$section', (c) => {
  it('saves a good value: answers the section, kept on GET /api/user/preference', async () => {
    const browser = await signedInAs([c.role]);
    const res = await browser.post(`/api/setting/update/${c.section}`, c.good);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(c.saved);
    expect(await sectionOf(browser, c.section)).toEqual(c.saved);
  });

  it('answers 400 with the message for each bad value and keeps the stored section', async () => {
    const browser = await signedInAs([c.role]);
    expect((await browser.post(`/api/setting/update/${c.section}`, c.good)).statusCode).toBe(200);
    for (const [body, message] of c.bad) {
      const res = await browser.post(`/api/setting/update/${c.section}`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.json().errorDescription).toBe(message);
    }
    expect(await sectionOf(browser, c.section)).toEqual(c.saved);
  });

  it(`answers 403 to ${c.forbidden}, which has no entry for it, on update and reset`, async () => {
    const browser = await signedInAs([c.forbidden]);
    const res = await browser.post(`/api/setting/update/${c.section}`, c.good);
    expect(res.statusCode).toBe(403);
    expect((await browser.post(`/api/setting/reset/${c.section}`)).statusCode).toBe(403);
    expect(await sectionOf(browser, c.section)).toEqual(defaultPreferences()[c.section]);
  });

  it('reset answers the defaults, and GET /api/user/preference shows them', async () => {
    const browser = await signedInAs([c.role]);
    expect((await browser.post(`/api/setting/update/${c.section}`, c.good)).statusCode).toBe(200);
    const reset = await browser.post(`/api/setting/reset/${c.section}`);
    if (c.section === 'LAB_DEPARTMENTS') {
      // Departments cannot be deleted, by a reset either.
      expect(reset.statusCode).toBe(400);
      expect(reset.json().errorDescription).toBe(M.departmentCannotBeDeleted);
      expect(await sectionOf(browser, c.section)).toEqual(c.saved);
      return;
    }
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual(defaultPreferences()[c.section]);
    expect(await sectionOf(browser, c.section)).toEqual(defaultPreferences()[c.section]);
  });
});

describe('whole-list sections', () => {
  it('a list sent replaces the stored list', async () => {
    const browser = await signedInAs(['ROLE_CENTER']);
    const first = { seriesMappings: [{ seriesName: 'A', preferredName: 'a' }] };
    const second = { seriesMappings: [{ seriesName: 'B', preferredName: 'b' }] };
    await browser.post('/api/setting/update/SERIES_NAME', first);
    expect((await browser.post('/api/setting/update/SERIES_NAME', second)).json()).toEqual(second);
    expect(await sectionOf(browser, 'SERIES_NAME')).toEqual(second);
  });
});

describe('every role keeps its own UI, table and tutorial sections', () => {
  it.each<TRole>(['ROLE_ASSIGNOR', 'ROLE_LABS_RECEPTIONIST', 'ROLE_CENTER_CUSTOMER'])('%s', async (role) => {
    const browser = await signedInAs([role]);
    const ui = await browser.post('/api/setting/update/UI_PREFERENCES', { popupViewer: true });
    expect(ui.statusCode).toBe(200);
    const tour = await browser.post('/api/setting/update/TUTORIAL_STATUS', { completed: ['worklist'] });
    expect(tour.statusCode).toBe(200);
    expect(await sectionOf(browser, 'TUTORIAL_STATUS')).toEqual({ completed: ['worklist'], inProgress: {} });
  });
});

describe('POST /api/setting/update-group/VERIFICATION_SETTINGS', () => {
  const good = {
    needVerification: true,
    centersAndDoctorsList: [{ centerEmail: 'c@x.in', doctorEmail: 'd@x.in' }],
  };

  it('the group admin saves it; the group sees it; a bad e-mail is refused and nothing changes', async () => {
    const group = await createTestGroup(t.db);
    const admin = await signedInAs(['ROLE_GROUP'], group.id);
    const res = await admin.post('/api/setting/update-group/VERIFICATION_SETTINGS', good);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...good, selectAllDoctorsAndCenters: false });
    const doctor = await signedInAs(['ROLE_DOCTOR'], group.id);
    expect(await sectionOf(doctor, 'VERIFICATION_SETTINGS')).toEqual(res.json());

    const bad = await admin.post('/api/setting/update-group/VERIFICATION_SETTINGS', {
      centersAndDoctorsList: [{ centerEmail: 'c@x.in', doctorEmail: 'nope' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorDescription).toBe(M.emailInvalid);
    expect(await sectionOf(doctor, 'VERIFICATION_SETTINGS')).toEqual(res.json());

    expect((await doctor.post('/api/setting/update-group/VERIFICATION_SETTINGS', good)).statusCode).toBe(403);
    // A group section is not a user section.
    expect((await admin.post('/api/setting/update/VERIFICATION_SETTINGS', good)).statusCode).toBe(400);
  });
});

describe('POST /api/setting/update/LAB_SLOTS', () => {
  const slot = {
    name: 'Morning CT',
    labModalities: ['CT'],
    weeklyTiming: { '1': { startTime: '09:00', endTime: '12:30', appointmentLimit: 10 } },
    blockedDays: ['2026-12-25', '2026-12-25'],
  };
  const saved = { slots: [{ ...slot, blockedDays: ['2026-12-25'] }] };

  async function centerWithAppointments(on: boolean) {
    const group = await createTestGroup(t.db);
    await setGroupPreference(t.db, group.id, 'GROUP_SWITCHES', { appointmentSupportRIS: on });
    return signedInAs(['ROLE_CENTER'], group.id);
  }

  it('a center saves slots (blocked dates once); each bad value is refused with its message', async () => {
    const center = await centerWithAppointments(true);
    const res = await center.post('/api/setting/update/LAB_SLOTS', { slots: [slot] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(saved);
    const bad: [unknown, string][] = [
      [
        {
          ...slot,
          name: 'Evening',
          weeklyTiming: { '2': { startTime: '18:00', endTime: '09:00', appointmentLimit: 1 } },
        },
        M.slotStartAfterEnd,
      ],
      [{ ...slot, name: 'Evening', weeklyTiming: {} }, M.slotDayRequired],
      [{ ...slot, name: 'Evening', labModalities: [] }, M.slotModalityRequired],
      [{ ...slot, name: 'Evening', labModalities: ['CT', 'MR'] }, M.slotOneModality],
      [
        {
          ...slot,
          name: 'Evening',
          weeklyTiming: { '2': { startTime: '09:00', endTime: '10:00', appointmentLimit: 0 } },
        },
        M.slotLimitInvalid,
      ],
      [{ ...slot, name: 'Evening', blockedDays: ['2026/12/25'] }, M.slotBlockedDateInvalid],
      [{ ...slot, name: 'morning ct' }, M.slotDuplicateName],
    ];
    for (const [extra, message] of bad) {
      const refused = await center.post('/api/setting/update/LAB_SLOTS', { slots: [slot, extra] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errorDescription).toBe(message);
    }
    expect(await sectionOf(center, 'LAB_SLOTS')).toEqual(saved);
    // Editing keeps the name: the changed slot replaces the stored one.
    const edited = {
      ...slot,
      weeklyTiming: { '3': { startTime: '10:00', endTime: '11:00', appointmentLimit: 2 } },
    };
    expect((await center.post('/api/setting/update/LAB_SLOTS', { slots: [edited] })).statusCode).toBe(200);
  });

  it('with the appointment setting off a new slot is refused; a doctor gets 403', async () => {
    const center = await centerWithAppointments(false);
    const res = await center.post('/api/setting/update/LAB_SLOTS', { slots: [slot] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDescription).toBe(M.slotAppointmentsOff);
    expect(await sectionOf(center, 'LAB_SLOTS')).toEqual({ slots: [] });
    const doctor = await signedInAs(['ROLE_DOCTOR']);
    expect((await doctor.post('/api/setting/update/LAB_SLOTS', { slots: [slot] })).statusCode).toBe(403);
  });
});

describe("UI_PREFERENCES.autoRefresh (the doctor's auto refresh toggle)", () => {
  it('is on by default; the doctor turns it off and it stays off; a non-boolean is refused', async () => {
    const doctor = await signedInAs(['ROLE_DOCTOR']);
    expect(await sectionOf(doctor, 'UI_PREFERENCES')).toMatchObject({ autoRefresh: true });
    const res = await doctor.post('/api/setting/update/UI_PREFERENCES', { autoRefresh: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ autoRefresh: false, popupViewer: false });
    const bad = await doctor.post('/api/setting/update/UI_PREFERENCES', { autoRefresh: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().additionalInfo).toBe('autoRefresh');
    expect(await sectionOf(doctor, 'UI_PREFERENCES')).toMatchObject({ autoRefresh: false });
  });
});

describe('REPORT_TEXT is cleaned when saved', () => {
  it('drops scripts, event handlers and javascript: links, keeps the TipTap markup', async () => {
    const doctor = await signedInAs(['ROLE_DOCTOR']);
    const res = await doctor.post('/api/setting/update/REPORT_TEXT', {
      header:
        '<h2 style="text-align:center" onclick="steal()">Clinic</h2><script>alert(1)</script>' +
        '<img src="javascript:alert(1)"><img src="/api/assets/abc123" onerror="x()">',
      footer: '<p><a href="javascript:alert(1)">call</a> <span style="color:#ff0000">us</span></p>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const clean = {
      header: '<h2 style="text-align:center">Clinic</h2><img src="/api/assets/abc123" />',
      footer: '<p>call <span style="color:#ff0000">us</span></p>',
      disclaimer: '',
    };
    expect(res.json()).toEqual(clean);
    expect(await sectionOf(doctor, 'REPORT_TEXT')).toEqual(clean);
  });
});
