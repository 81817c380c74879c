import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CENTER_SECTIONS,
  GROUP_SECTIONS,
  PREFERENCE_SECTIONS,
  ZUserPreferences,
  defaultPreferences,
  groupFlags,
  preferenceOwnerOf,
  resolvePreferences,
} from './preferences.js';

/** spec-core §3 User preferences, USER_ADMIN_VISIBLE_PREFERENCES (group settings); all switches but customRouterUrl. */
const ADMIN_VISIBLE_SWITCHES = [
  'removeCenterNameWhileUploading',
  'hideStudyDateColumn',
  'hideUploadedAtColumn',
  'amuSpecialCustomization',
  'showPatientIdInReportPage',
  'hideCenterColumnForVerifier',
  'hideAssignedToForCenter',
  'showAssignedToInSummaryPage',
  'hideSummaryPage',
  'disableExcelDownloadForAssignor',
  'disableReportEditingForCenter',
  'disableReSignOffOfReport',
  'disableZipDownloadingForCenter',
  'allowReferringDoctorToDownloadZip',
  'disableDownloadZipForDoctor',
  'teleMedSpecificCustomization',
  'enableFullViewerForCenter',
  'doNotSendWhatsappMessage',
  'sendCapabilityAtCenter',
  'sharingDetailBeforeSend',
  'useInBrowserPythonApp',
  'enableDashboardViewer',
  'enableReportSearch',
  'enableElasticReportSummary',
  'disableCreateTemplateOptionToRadiologist',
];

/** spec-core §3 "Further group switches" and spec-lab §6 "Feature switches (group settings)". */
const FURTHER_GROUP_SWITCHES = [
  'needBilling',
  'allowToSplitStudy',
  'enableReportRework',
  'hideUnlockFromDoctor',
  'anonymizePatientForDoctor',
  'downloadReportWithLetterhead',
  'appendQrCodeToReport',
  'enableAuditorAssignmentFeature',
  'radiologistCanSendToReferringDoctor',
  'addForwardingPacsFeature',
  'enableMultipleZipDownload',
  'openInWeasis',
  'openInHoros',
  'enableSecureViewerQrCodeGeneration',
  'showSubscriptionWarning',
  'enableSupportChatBot',
  'showActiveInViewer',
  'enableDraftedForTypist',
  'requireOtpForSharedReport',
  'enableSpeechToText',
  'hideDeletedStudies',
  'requirePaymentBeforeReportRelease',
];
const LAB_SWITCHES = [
  'createPatientInRisWithoutShowingDialog',
  'appointmentSupportRIS',
  'enableRISCategory',
  'showExtraModalityType',
  'directPrintRisSubmit',
  'enableSummaryPdfRIS',
  'enableDirectHeaderReportPrint',
  'customMessageForGIC',
];

/** spec-core §3 UI_PREFERENCES. */
const UI_SWITCHES = [
  'hideStudyListReportButton',
  'halfPageReporting',
  'enableVoiceTyping',
  'popupViewer',
  'popupViewerDoNotFocus',
];

describe('preference defaults (spec-core §3 User preferences)', () => {
  const prefs = defaultPreferences();

  it('has every section the spec names', () => {
    expect(Object.keys(prefs)).toEqual(
      expect.arrayContaining([
        'USER_ADMIN_VISIBLE_PREFERENCES',
        'USER_INFORMATION',
        'UI_PREFERENCES',
        'UI_REPORT_TABLE_PREFERENCES',
        'USER_TABLE_PREFERENCES',
        'TUTORIAL_STATUS',
        'TAGS',
      ]),
    );
    expect(Object.keys(prefs).sort()).toEqual(Object.keys(PREFERENCE_SECTIONS).sort());
  });

  it('USER_ADMIN_VISIBLE_PREFERENCES holds exactly the listed names', () => {
    expect(Object.keys(prefs.USER_ADMIN_VISIBLE_PREFERENCES).sort()).toEqual(
      [...ADMIN_VISIBLE_SWITCHES, 'customRouterUrl'].sort(),
    );
  });

  it.each(ADMIN_VISIBLE_SWITCHES)('USER_ADMIN_VISIBLE_PREFERENCES.%s defaults off', (name) => {
    expect((prefs.USER_ADMIN_VISIBLE_PREFERENCES as Record<string, unknown>)[name]).toBe(false);
  });

  it('customRouterUrl defaults to empty', () => {
    expect(prefs.USER_ADMIN_VISIBLE_PREFERENCES.customRouterUrl).toBe('');
  });

  it('the group switch section holds exactly the further group and lab switches', () => {
    expect(Object.keys(prefs.GROUP_SWITCHES).sort()).toEqual(
      [...FURTHER_GROUP_SWITCHES, ...LAB_SWITCHES].sort(),
    );
  });

  it.each([...FURTHER_GROUP_SWITCHES, ...LAB_SWITCHES])('group switch %s defaults off', (name) => {
    expect((prefs.GROUP_SWITCHES as Record<string, unknown>)[name]).toBe(false);
  });

  it("admin/performance values default to unset or off; the display time zone to the spec's +05:30", () => {
    expect(prefs.ADMIN_PREFERENCES).toEqual({
      signOffTimeLimit: null,
      showRedAfterTAT: false,
      durationOfBackupInMonth: null,
      appDomain: null,
      enableLoginAuditLogs: false,
      anonymizeZipType: 'NONE',
      shareLinkValidityDays: null,
      displayTimeZone: 'Asia/Kolkata',
      criticalResultEscalationMinutes: null,
    });
  });

  it('UI_PREFERENCES holds exactly the listed switches, all off, and auto refresh on', () => {
    expect(prefs.UI_PREFERENCES).toEqual({
      ...Object.fromEntries(UI_SWITCHES.map((n) => [n, false])),
      autoRefresh: true,
    });
  });

  it('BILLING_DETAILS is blank with 0 % GST', () => {
    expect(prefs.BILLING_DETAILS).toEqual({
      logo: '',
      accName: '',
      bankName: '',
      bankAccount: '',
      bankIFSC: '',
      bankBranch: '',
      pan: '',
      gstNumber: '',
      gstPercentage: 0,
    });
  });

  it('the user sections default to empty', () => {
    expect(prefs.USER_INFORMATION).toEqual({
      email: '',
      mobileNumber: '',
      address: '',
      gstNumber: '',
      disclaimer: '',
      centerImage: '',
      copyLinkTitleText: '',
    });
    expect(prefs.SERIES_NAME).toEqual({ seriesMappings: [] });
    expect(prefs.LAB_DEPARTMENTS).toEqual({ labDepartmentList: [], referringDoctorDepartmentList: [] });
    expect(prefs.LAB_CATEGORY_PRIORITY).toEqual({ categoriesAndPriorities: [] });
    expect(prefs.REPORT_TEXT).toEqual({ header: '', footer: '', disclaimer: '' });
    expect(prefs.EDITOR_PREFERENCES).toEqual({
      defaultEditorFontSize: 12,
      defaultEditorFontFamily: 'Arial',
      hideReportPreview: false,
      showImagesInPrintPreview: false,
    });
    expect(prefs.USER_TABLE_PREFERENCES).toEqual({ tableColumnSettings: {} });
    expect(prefs.TAGS).toEqual({ tags: [] });
    expect(prefs.TUTORIAL_STATUS).toEqual({ completed: [], inProgress: {} });
    expect(prefs.UI_REPORT_TABLE_PREFERENCES.openInRadiantPath).toBe('');
  });

  it('is a valid answer of GET /user/preference', () => {
    expect(ZUserPreferences.safeParse(prefs).success).toBe(true);
  });

  it('gives a fresh object each time', () => {
    const a = defaultPreferences();
    a.TAGS.tags.push('x');
    expect(defaultPreferences().TAGS.tags).toEqual([]);
  });
});

describe('resolvePreferences', () => {
  it('completes a partial section with defaults and keeps what was stored', () => {
    const prefs = resolvePreferences({ UI_PREFERENCES: { popupViewer: true } });
    expect(prefs.UI_PREFERENCES).toEqual({
      hideStudyListReportButton: false,
      halfPageReporting: false,
      enableVoiceTyping: false,
      popupViewer: true,
      popupViewerDoNotFocus: false,
      autoRefresh: true,
    });
    expect(prefs.TAGS).toEqual({ tags: [] });
  });

  it('keeps stored values of every kind', () => {
    const prefs = resolvePreferences({
      ADMIN_PREFERENCES: { signOffTimeLimit: 60, appDomain: 'rad.example.com', anonymizeZipType: 'ALL' },
      TAGS: { tags: ['urgent'] },
      USER_TABLE_PREFERENCES: {
        tableColumnSettings: { studyList: [{ colName: 'id', visible: true, index: 0 }] },
      },
    });
    expect(prefs.ADMIN_PREFERENCES).toMatchObject({
      signOffTimeLimit: 60,
      appDomain: 'rad.example.com',
      anonymizeZipType: 'ALL',
    });
    expect(prefs.TAGS.tags).toEqual(['urgent']);
    expect(prefs.USER_TABLE_PREFERENCES.tableColumnSettings['studyList']).toEqual([
      { colName: 'id', visible: true, index: 0 },
    ]);
  });

  it('drops unknown keys and unknown sections', () => {
    const prefs = resolvePreferences({
      UI_PREFERENCES: { popupViewer: true, legacySwitch: true },
      ...({ NOT_A_SECTION: { a: 1 } } as object),
    });
    expect(prefs.UI_PREFERENCES).not.toHaveProperty('legacySwitch');
    expect(prefs.UI_PREFERENCES.popupViewer).toBe(true);
    expect(prefs).not.toHaveProperty('NOT_A_SECTION');
  });

  it.each<[string, unknown]>([
    ['a wrong type', { popupViewer: 'yes', halfPageReporting: true }],
    ['a string', 'corrupt'],
    ['an array', [true]],
    ['a number', 7],
  ])('falls back to defaults for a section holding %s, leaving other sections alone', (_name, raw) => {
    const prefs = resolvePreferences({ UI_PREFERENCES: raw, TAGS: { tags: ['kept'] } });
    expect(prefs.UI_PREFERENCES).toEqual(defaultPreferences().UI_PREFERENCES);
    expect(prefs.TAGS.tags).toEqual(['kept']);
  });

  it('treats a null section as not stored', () => {
    expect(resolvePreferences({ UI_PREFERENCES: null })).toEqual(defaultPreferences());
  });
});

describe('GROUP_SECTIONS', () => {
  it('are the group settings, switches, admin values and verification settings', () => {
    expect([...GROUP_SECTIONS].sort()).toEqual([
      'ADMIN_PREFERENCES',
      'GROUP_SWITCHES',
      'USER_ADMIN_VISIBLE_PREFERENCES',
      'VERIFICATION_SETTINGS',
    ]);
  });
});

describe('preferenceOwnerOf', () => {
  const centerUser = { id: 7, groupId: 3, centerId: 5 };
  const looseUser = { id: 8, groupId: 3, centerId: null };

  it('keeps the lab sections and the series mapping at the center', () => {
    expect([...CENTER_SECTIONS].sort()).toEqual([
      'LAB_CATEGORY_PRIORITY',
      'LAB_DEPARTMENTS',
      'LAB_SLOTS',
      'SERIES_NAME',
    ]);
    for (const section of CENTER_SECTIONS) {
      expect(preferenceOwnerOf(section, centerUser)).toEqual({ scope: 'CENTER', ownerId: 5 });
      expect(preferenceOwnerOf(section, looseUser)).toEqual({ scope: 'USER', ownerId: 8 });
    }
  });

  it('keeps group sections at the group and the rest at the user', () => {
    expect(preferenceOwnerOf('GROUP_SWITCHES', centerUser)).toEqual({ scope: 'GROUP', ownerId: 3 });
    expect(preferenceOwnerOf('BILLING_DETAILS', centerUser)).toEqual({ scope: 'USER', ownerId: 7 });
    expect(preferenceOwnerOf('TAGS', looseUser)).toEqual({ scope: 'USER', ownerId: 8 });
  });
});

describe('groupFlags', () => {
  it('flattens the three group sections into one object', () => {
    const prefs = resolvePreferences({
      USER_ADMIN_VISIBLE_PREFERENCES: { hideSummaryPage: true },
      GROUP_SWITCHES: { needBilling: true },
      ADMIN_PREFERENCES: { enableLoginAuditLogs: true, signOffTimeLimit: 30 },
      UI_PREFERENCES: { popupViewer: true },
    });
    const flags = groupFlags(prefs);
    expect(flags.hideSummaryPage).toBe(true);
    expect(flags.needBilling).toBe(true);
    expect(flags.enableLoginAuditLogs).toBe(true);
    expect(flags.signOffTimeLimit).toBe(30);
    expect(flags.enableReportSearch).toBe(false);
    expect(Object.keys(flags).sort()).toEqual(
      [
        ...Object.keys(prefs.USER_ADMIN_VISIBLE_PREFERENCES),
        ...Object.keys(prefs.GROUP_SWITCHES),
        ...Object.keys(prefs.ADMIN_PREFERENCES),
      ].sort(),
    );
    expect(flags).not.toHaveProperty('popupViewer');
  });
});

describe('PREFERENCE_SECTIONS serialise', () => {
  it('encode without transforms (GET /user/preference answers through them), lists filled', () => {
    const prefs = resolvePreferences({
      LAB_CATEGORY_PRIORITY: {
        categoriesAndPriorities: [{ name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY' }],
      },
      LAB_DEPARTMENTS: { labDepartmentList: ['CT'] },
      SERIES_NAME: { seriesMappings: [{ seriesName: 'T1', preferredName: 'Axial' }] },
    });
    expect(prefs.LAB_CATEGORY_PRIORITY.categoriesAndPriorities).toHaveLength(1);
    expect(z.encode(ZUserPreferences, prefs)).toEqual(prefs);
  });
});
