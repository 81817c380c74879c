import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import {
  canAddAttachment,
  canAssign,
  canAssignAuditor,
  canAssignMulti,
  canDeleteAttachment,
  canEditHistory,
  canEditReport,
  canEditStudyDetails,
  canEditStudyType,
  canMarkDeleted,
  canMarkUrgent,
  canOpenHistoryEditOnSummary,
  canPrint,
  canRecreateZip,
  canRework,
  canSeeTimelineButton,
  canSendToReferringDoctor,
  canSetAuditStatus,
  canSplit,
  canUnlock,
  isDownloadAndPrintHidden,
  isReSignOffBlocked,
  isRowActionsDisabled,
  rowActions,
  sendsForReporting,
} from './actions.js';
import { REPORT_STATUSES, type TReportStatus } from './statuses.js';
import { TEST_CENTER_ID, createTestFlags, createTestRow } from './test-builders.js';

const S = REPORT_STATUSES;
const except = (...out: TReportStatus[]) => S.filter((s) => !out.includes(s));

/** Every status with whether the rule should hold on it, for a table row per status. */
const statusTable = (allowed: readonly TReportStatus[]) =>
  S.map((status) => [status, allowed.includes(status)] as const);

describe('isRowActionsDisabled (spec-core §4 "Deleted studies disable all row actions")', () => {
  it.each(statusTable(['DELETED']))('%s → %s', (status, disabled) => {
    expect(isRowActionsDisabled({ status })).toBe(disabled);
  });
});

describe('canMarkUrgent (spec-core §4: CREATED or HISTORY_CREATED, center or admin)', () => {
  it.each(statusTable(['CREATED', 'HISTORY_CREATED']))('center on %s → %s', (status, ok) => {
    expect(
      canMarkUrgent({ roles: ['ROLE_CENTER'], flags: {}, row: { status, centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
  it.each(statusTable(['CREATED', 'HISTORY_CREATED']))('admin on %s → %s', (status, ok) => {
    expect(
      canMarkUrgent({ roles: ['ROLE_ADMIN'], flags: {}, row: { status, centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
  it.each<[TRole[], boolean]>([
    [['ROLE_CENTER'], true],
    [['ROLE_CENTER_CUSTOMER'], true],
    [['ROLE_ADMIN'], true],
    [['ROLE_DOCTOR'], false],
    [['ROLE_ASSIGNOR'], false],
    [['ROLE_TELE_RADIOLOGY'], false],
    [['ROLE_TYPIST'], false],
    [['ROLE_REFERRING_DOCTOR'], false],
  ])('%j on CREATED → %s', (roles, ok) => {
    expect(
      canMarkUrgent({ roles, flags: {}, row: { status: 'CREATED', centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
});

describe('canMarkDeleted (spec-core §4: CREATED, or HISTORY_CREATED for admin; center only unless hide-deleted)', () => {
  it.each<[TRole[], TReportStatus, boolean, boolean]>([
    // center: CREATED only, whatever the setting
    [['ROLE_CENTER'], 'CREATED', false, true],
    [['ROLE_CENTER'], 'CREATED', true, true],
    [['ROLE_CENTER'], 'HISTORY_CREATED', false, false],
    [['ROLE_CENTER'], 'HISTORY_CREATED', true, false],
    [['ROLE_CENTER'], 'LOCKED', false, false],
    [['ROLE_CENTER'], 'SIGNED_OFF', false, false],
    [['ROLE_CENTER'], 'DELETED', false, false],
    // admin: only when the hide-deleted setting lifts "center only"; then CREATED and HISTORY_CREATED
    [['ROLE_ADMIN'], 'CREATED', false, false],
    [['ROLE_ADMIN'], 'HISTORY_CREATED', false, false],
    [['ROLE_ADMIN'], 'CREATED', true, true],
    [['ROLE_ADMIN'], 'HISTORY_CREATED', true, true],
    [['ROLE_ADMIN'], 'LOCKED', true, false],
    [['ROLE_ADMIN'], 'REPORTED', true, false],
    [['ROLE_ADMIN'], 'DELETED', true, false],
    // a center user who is also admin gets HISTORY_CREATED through the admin role
    [['ROLE_CENTER', 'ROLE_ADMIN'], 'HISTORY_CREATED', false, true],
    // nobody else, setting or not
    [['ROLE_DOCTOR'], 'CREATED', true, false],
    [['ROLE_ASSIGNOR'], 'CREATED', true, false],
    [['ROLE_TELE_RADIOLOGY'], 'CREATED', true, false],
  ])('%j on %s, hide-deleted %s → %s', (roles, status, hideDeletedSetting, ok) => {
    expect(
      canMarkDeleted({ roles, flags: {}, row: { status, centerId: 7 }, userCenterId: 7, hideDeletedSetting }),
    ).toBe(ok);
  });
});

describe('canUnlock (spec-core §4: SIGNED_OFF, LOCKED, REPORTED, DRAFTED; doctors or admin; hideUnlockFromDoctor)', () => {
  const unlockable = ['SIGNED_OFF', 'LOCKED', 'REPORTED', 'DRAFTED'] as const;
  it.each(statusTable(unlockable))('doctor on %s → %s', (status, ok) => {
    expect(
      canUnlock({ roles: ['ROLE_DOCTOR'], flags: { hideUnlockFromDoctor: false }, row: { status } }),
    ).toBe(ok);
  });
  it.each(statusTable(unlockable))('admin on %s → %s', (status, ok) => {
    expect(
      canUnlock({ roles: ['ROLE_ADMIN'], flags: { hideUnlockFromDoctor: false }, row: { status } }),
    ).toBe(ok);
  });
  it.each<[TRole[], boolean, boolean]>([
    [['ROLE_DOCTOR'], false, true],
    [['ROLE_DOCTOR'], true, false],
    [['ROLE_ADMIN'], true, true],
    [['ROLE_DOCTOR', 'ROLE_ADMIN'], true, true],
    [['ROLE_TYPIST'], false, false],
    [['ROLE_CENTER'], false, false],
    [['ROLE_ASSIGNOR'], false, false],
    [['ROLE_VERIFIER'], false, false],
  ])('%j with hideUnlockFromDoctor %s on SIGNED_OFF → %s', (roles, hideUnlockFromDoctor, ok) => {
    expect(canUnlock({ roles, flags: { hideUnlockFromDoctor }, row: { status: 'SIGNED_OFF' } })).toBe(ok);
  });
});

describe('canRework (spec-core §4: unlock statuses; tele-radiology or enableReportRework)', () => {
  const unlockable = ['SIGNED_OFF', 'LOCKED', 'REPORTED', 'DRAFTED'] as const;
  it.each(statusTable(unlockable))('tele-radiology on %s → %s', (status, ok) => {
    expect(
      canRework({ roles: ['ROLE_TELE_RADIOLOGY'], flags: { enableReportRework: false }, row: { status } }),
    ).toBe(ok);
  });
  it.each(statusTable(unlockable))('admin with rework enabled on %s → %s', (status, ok) => {
    expect(canRework({ roles: ['ROLE_ADMIN'], flags: { enableReportRework: true }, row: { status } })).toBe(
      ok,
    );
  });
  it.each<[TRole[], boolean, boolean]>([
    [['ROLE_ADMIN'], false, false],
    [['ROLE_ADMIN'], true, true],
    [['ROLE_DOCTOR'], false, false],
    [['ROLE_DOCTOR'], true, true],
    [['ROLE_TELE_RADIOLOGY'], false, true],
    [['ROLE_CENTER'], true, false],
    [['ROLE_ASSIGNOR'], true, false],
    [['ROLE_TYPIST'], true, false],
  ])('%j with enableReportRework %s on SIGNED_OFF → %s', (roles, enableReportRework, ok) => {
    expect(canRework({ roles, flags: { enableReportRework }, row: { status: 'SIGNED_OFF' } })).toBe(ok);
  });
  it('is not touched by hideUnlockFromDoctor', () => {
    const flags = createTestFlags({ enableReportRework: true, hideUnlockFromDoctor: true });
    const row = createTestRow({ status: 'SIGNED_OFF' });
    expect(canRework({ roles: ['ROLE_DOCTOR'], flags, row })).toBe(true);
    expect(canUnlock({ roles: ['ROLE_DOCTOR'], flags, row })).toBe(false);
  });
});

describe('canSplit (spec-core §4: allowToSplitStudy, not already split)', () => {
  const on = { allowToSplitStudy: true };
  const fresh = { splitFromReportStatusId: null, hasSplitChild: false };
  it.each<[boolean, number | null, boolean, boolean]>([
    [true, null, false, true],
    [false, null, false, false],
    [true, 41, false, false],
    [true, null, true, false],
  ])('allowToSplitStudy %s, parent id %s, has split child %s → %s', (allow, parent, child, ok) => {
    const row = { status: 'HISTORY_CREATED' as const, splitFromReportStatusId: parent, hasSplitChild: child };
    expect(
      canSplit({
        roles: ['ROLE_ADMIN'],
        flags: { allowToSplitStudy: allow },
        row: { ...row, centerId: 7 },
        userCenterId: 7,
      }),
    ).toBe(ok);
  });
  it.each(statusTable(except('DELETED')))('admin on %s → %s', (status, ok) => {
    expect(
      canSplit({ roles: ['ROLE_ADMIN'], flags: on, row: { status, ...fresh, centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
  it.each<[TRole[], boolean]>([
    [['ROLE_ADMIN'], true],
    [['ROLE_ASSIGNOR'], true],
    [['ROLE_CENTER'], true],
    [['ROLE_TELE_RADIOLOGY'], true],
    [['ROLE_DOCTOR'], false],
    [['ROLE_TYPIST'], false],
    [['ROLE_VERIFIER'], false],
    [['ROLE_REFERRING_DOCTOR'], false],
  ])('%j → %s', (roles, ok) => {
    expect(
      canSplit({ roles, flags: on, row: { status: 'CREATED', ...fresh, centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
});

describe('canPrint (spec-core §4: has reports and SIGNED_OFF or DELETED)', () => {
  it.each(statusTable(['SIGNED_OFF', 'DELETED']))('with reports on %s → %s', (status, ok) => {
    expect(canPrint({ row: { status, hasReports: true } })).toBe(ok);
  });
  it.each(S)('without reports on %s → false', (status) => {
    expect(canPrint({ row: { status, hasReports: false } })).toBe(false);
  });
});

describe('isDownloadAndPrintHidden (spec-core §5: non-center doctors who are tele users or have downloading disabled)', () => {
  it.each<[TRole[], boolean, boolean, boolean]>([
    [['ROLE_DOCTOR'], false, false, false],
    [['ROLE_DOCTOR'], true, false, true],
    [['ROLE_DOCTOR'], false, true, true],
    [['ROLE_DOCTOR', 'ROLE_ADMIN'], true, false, true],
    [['ROLE_DOCTOR', 'ROLE_CENTER'], true, true, false],
    [['ROLE_CENTER'], true, true, false],
    [['ROLE_ADMIN'], true, true, false],
    [['ROLE_TYPIST'], true, true, false],
  ])('%j, tele user %s, disableDownloadZipForDoctor %s → hidden %s', (roles, teleUser, disable, hidden) => {
    expect(
      isDownloadAndPrintHidden({ roles, teleUser, flags: { disableDownloadZipForDoctor: disable } }),
    ).toBe(hidden);
  });
});

describe('isReSignOffBlocked (spec-core §4)', () => {
  it.each<[TRole[], TReportStatus, boolean, boolean]>([
    [['ROLE_DOCTOR'], 'SIGNED_OFF', true, true],
    [['ROLE_DOCTOR'], 'SIGNED_OFF', false, false],
    [['ROLE_ADMIN'], 'SIGNED_OFF', true, true],
    [['ROLE_DOCTOR'], 'REPORTED', true, true],
    [['ROLE_DOCTOR'], 'REPORTED', false, false],
    [['ROLE_TYPIST'], 'REPORTED', true, true],
    [['ROLE_TYPIST'], 'REPORTED', false, false],
    // not a sole doctor: the REPORTED case does not apply
    [['ROLE_DOCTOR', 'ROLE_ADMIN'], 'REPORTED', true, false],
    [['ROLE_VERIFIER'], 'REPORTED', true, false],
    [['ROLE_DOCTOR'], 'DRAFTED', true, false],
    [['ROLE_DOCTOR'], 'LOCKED', true, false],
    [['ROLE_DOCTOR'], 'CREATED', true, false],
  ])('%j on %s with disableReSignOffOfReport %s → blocked %s', (roles, status, flag, blocked) => {
    expect(isReSignOffBlocked({ roles, flags: { disableReSignOffOfReport: flag }, row: { status } })).toBe(
      blocked,
    );
  });
});

describe('canAssign and canAssignMulti (spec-core §6 "Multi-assign: ROLE_ASSIGNOR only")', () => {
  it.each(statusTable(['CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED']))(
    'assignor assigns on %s → %s',
    (status, ok) => {
      expect(canAssign({ roles: ['ROLE_ASSIGNOR'], flags: {}, row: { status } })).toBe(ok);
    },
  );
  it.each<[TRole[], boolean, boolean]>([
    [['ROLE_ASSIGNOR'], true, true],
    [['ROLE_ADMIN'], true, false],
    [['ROLE_VERIFIER'], false, false],
    [['ROLE_DOCTOR'], false, false],
    [['ROLE_CENTER'], false, false],
    [['ROLE_BILLER'], false, false],
  ])('%j: assign %s, assign-multi %s', (roles, single, multi) => {
    expect(canAssign({ roles, flags: {}, row: { status: 'HISTORY_CREATED' } })).toBe(single);
    expect(canAssignMulti({ roles })).toBe(multi);
  });
});

describe('canAssignAuditor (enableAuditorAssignmentFeature)', () => {
  it.each<[TRole[], boolean, TReportStatus, boolean]>([
    [['ROLE_ADMIN'], true, 'SIGNED_OFF', true],
    [['ROLE_ADMIN'], false, 'SIGNED_OFF', false],
    [['ROLE_ASSIGNOR'], true, 'SIGNED_OFF', true],
    [['ROLE_ASSIGNOR'], true, 'REPORTED', false],
    [['ROLE_ADMIN'], true, 'DELETED', false],
    [['ROLE_DOCTOR'], true, 'SIGNED_OFF', false],
    [['ROLE_AUDITOR'], true, 'SIGNED_OFF', false],
    [['ROLE_CENTER'], true, 'SIGNED_OFF', false],
  ])('%j, feature %s, on %s → %s', (roles, feature, status, ok) => {
    expect(
      canAssignAuditor({ roles, flags: { enableAuditorAssignmentFeature: feature }, row: { status } }),
    ).toBe(ok);
  });
});

describe('canSendToReferringDoctor (spec-core §6)', () => {
  it.each<[TRole[], boolean, TReportStatus, boolean]>([
    [['ROLE_DOCTOR'], true, 'SIGNED_OFF', true],
    [['ROLE_DOCTOR'], false, 'SIGNED_OFF', false],
    [['ROLE_CENTER'], false, 'CREATED', true],
    [['ROLE_CENTER_CUSTOMER'], false, 'CREATED', true],
    [['ROLE_CENTER'], false, 'DELETED', false],
    [['ROLE_DOCTOR'], true, 'DELETED', false],
    [['ROLE_TYPIST'], true, 'SIGNED_OFF', false],
    [['ROLE_ASSIGNOR'], true, 'SIGNED_OFF', false],
  ])('%j, radiologistCanSendToReferringDoctor %s, on %s → %s', (roles, flag, status, ok) => {
    expect(
      canSendToReferringDoctor({
        roles,
        flags: { radiologistCanSendToReferringDoctor: flag },
        row: { status, centerId: 7 },
        userCenterId: 7,
      }),
    ).toBe(ok);
  });
});

describe('canEditReport (spec-core §5 read-only roles, disableReportEditingForCenter)', () => {
  it.each<[TRole, boolean]>([
    ['ROLE_REFERRING_DOCTOR', false],
    ['ROLE_AUDITOR', false],
    ['ROLE_CUSTOMER', false],
    ['ROLE_VIEWER', false],
    ['ROLE_LABS_SUPERVISOR', false],
    ['ROLE_LABS_RECEPTIONIST', false],
    ['ROLE_DOCTOR', true],
    ['ROLE_TYPIST', true],
    ['ROLE_ADMIN', true],
    ['ROLE_VERIFIER', true],
    ['ROLE_CENTER', true],
  ])('%s alone → %s', (role, ok) => {
    expect(
      canEditReport({
        roles: [role],
        flags: { disableReportEditingForCenter: false },
        row: { status: 'LOCKED' },
      }),
    ).toBe(ok);
  });
  it.each<[TRole[], boolean, boolean]>([
    [['ROLE_CENTER'], false, true],
    [['ROLE_CENTER'], true, false],
    [['ROLE_CENTER_CUSTOMER'], true, false],
    [['ROLE_CENTER', 'ROLE_DOCTOR'], true, true],
    [['ROLE_DOCTOR'], true, true],
    [['ROLE_DOCTOR', 'ROLE_AUDITOR'], false, true],
  ])('%j with disableReportEditingForCenter %s → %s', (roles, flag, ok) => {
    expect(
      canEditReport({ roles, flags: { disableReportEditingForCenter: flag }, row: { status: 'LOCKED' } }),
    ).toBe(ok);
  });
  it.each(statusTable(except('DELETED')))(
    'doctor on %s → %s (report button disabled when deleted)',
    (status, ok) => {
      expect(
        canEditReport({
          roles: ['ROLE_DOCTOR'],
          flags: { disableReportEditingForCenter: false },
          row: { status },
        }),
      ).toBe(ok);
    },
  );
  it('nobody without roles', () => {
    expect(
      canEditReport({
        roles: [],
        flags: { disableReportEditingForCenter: false },
        row: { status: 'LOCKED' },
      }),
    ).toBe(false);
  });
});

describe('canEditHistory (spec-core §4: disabled when SIGNED_OFF)', () => {
  it.each(statusTable(except('SIGNED_OFF', 'DELETED')))('%s → %s', (status, ok) => {
    expect(canEditHistory({ row: { status } })).toBe(ok);
  });
});

describe('canEditStudyType (spec-core §4: not for center users on SIGNED_OFF, LOCKED, DELETED)', () => {
  it.each(statusTable(except('SIGNED_OFF', 'LOCKED', 'DELETED')))('center on %s → %s', (status, ok) => {
    expect(canEditStudyType({ roles: ['ROLE_CENTER'], flags: {}, row: { status } })).toBe(ok);
  });
  it.each(statusTable(except('DELETED')))('tele-radiology on %s → %s', (status, ok) => {
    expect(canEditStudyType({ roles: ['ROLE_TELE_RADIOLOGY'], flags: {}, row: { status } })).toBe(ok);
  });
});

describe('sendsForReporting (spec-core §4 "Send for reporting")', () => {
  it.each<[TRole[], TReportStatus, boolean]>([
    [['ROLE_CENTER'], 'CREATED', true],
    [['ROLE_TELE_RADIOLOGY'], 'CREATED', true],
    [['ROLE_CENTER_CUSTOMER'], 'CREATED', true],
    [['ROLE_CENTER'], 'HISTORY_CREATED', false],
    [['ROLE_TELE_RADIOLOGY'], 'LOCKED', false],
    [['ROLE_ADMIN'], 'CREATED', false],
    [['ROLE_DOCTOR'], 'CREATED', false],
  ])('%j on %s → %s', (roles, status, ok) => {
    expect(sendsForReporting({ roles, flags: {}, row: { status } })).toBe(ok);
  });
});

describe('summary and timeline buttons (spec-core §2 Summary screen, §6)', () => {
  it.each<[TRole[], boolean, boolean]>([
    [['ROLE_BILLER'], true, false],
    [['ROLE_TELE_RADIOLOGY'], true, false],
    [['ROLE_ASSIGNOR'], false, true],
    [['ROLE_CENTER'], false, true],
    [['ROLE_ADMIN'], false, false],
    [['ROLE_DOCTOR'], false, false],
    [['ROLE_VERIFIER'], false, false],
    [['ROLE_ADMIN_BILLER'], false, false],
  ])('%j: history edit %s, timeline %s', (roles, historyEdit, timeline) => {
    expect(canOpenHistoryEditOnSummary({ roles })).toBe(historyEdit);
    expect(canSeeTimelineButton({ roles })).toBe(timeline);
  });
});

describe('attachments and recreate zip (spec-core §6 Center)', () => {
  it.each<[TRole[], TReportStatus, boolean]>([
    [['ROLE_CENTER'], 'HISTORY_CREATED', true],
    [['ROLE_CENTER'], 'SIGNED_OFF', true],
    [['ROLE_CENTER'], 'DELETED', false],
    [['ROLE_DOCTOR'], 'HISTORY_CREATED', false],
    [['ROLE_ADMIN'], 'HISTORY_CREATED', false],
  ])('%j on %s → %s', (roles, status, ok) => {
    const input = { roles, flags: {}, row: { status, centerId: 7 }, userCenterId: 7 };
    expect(canAddAttachment(input, 'history')).toBe(ok);
    expect(canAddAttachment(input, 'film')).toBe(ok);
    expect(canDeleteAttachment(input, 'history')).toBe(ok);
    expect(canDeleteAttachment(input, 'film')).toBe(ok);
    expect(canDeleteAttachment(input, 'report')).toBe(ok);
    expect(canRecreateZip(input)).toBe(ok);
  });
  it('report attachments are never added (no upload call in spec-core §7)', () => {
    expect(
      canAddAttachment(
        { roles: ['ROLE_CENTER'], flags: {}, row: { status: 'CREATED', centerId: 7 }, userCenterId: 7 },
        'report',
      ),
    ).toBe(false);
  });
});

describe('rowActions (the summary of every rule)', () => {
  it('turns everything off on a deleted study but print', () => {
    const actions = rowActions({
      roles: ['ROLE_CENTER', 'ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_DOCTOR'],
      flags: createTestFlags({
        allowToSplitStudy: true,
        enableReportRework: true,
        enableAuditorAssignmentFeature: true,
      }),
      row: createTestRow({ status: 'DELETED', hasReports: true }),
      userCenterId: TEST_CENTER_ID,
      hideDeletedSetting: true,
    });
    const on = Object.entries(actions)
      .filter(([, v]) => v)
      .map(([k]) => k);
    expect(on).toEqual(['print']);
  });

  it('gives a center its own set on a fresh study', () => {
    const actions = rowActions({
      roles: ['ROLE_CENTER'],
      flags: createTestFlags(),
      row: createTestRow({ status: 'CREATED' }),
      userCenterId: TEST_CENTER_ID,
      hideDeletedSetting: false,
    });
    expect(actions).toEqual({
      markUrgent: true,
      markDeleted: true,
      unlock: false,
      rework: false,
      split: false,
      print: false,
      assign: false,
      assignAuditor: false,
      sendToReferringDoctor: true,
      editReport: true,
      editHistory: true,
      editStudyType: true,
      addHistoryAttachment: true,
      addFilmAttachment: true,
      deleteAttachment: true,
      recreateZip: true,
      timeline: true,
      downloadZip: true,
    });
  });

  it('takes the zip rule from zip-rules (spec-core §5)', () => {
    const base = {
      roles: ['ROLE_CENTER'] as TRole[],
      row: createTestRow(),
      userCenterId: TEST_CENTER_ID,
      hideDeletedSetting: false,
    };
    expect(rowActions({ ...base, flags: createTestFlags() }).downloadZip).toBe(true);
    expect(
      rowActions({ ...base, flags: createTestFlags({ disableZipDownloadingForCenter: true }) }).downloadZip,
    ).toBe(false);
  });
});

describe('one input for every rule ({ roles, flags, row })', () => {
  it('every rule takes the same literal input', () => {
    const roles: TRole[] = ['ROLE_CENTER'];
    const flags = createTestFlags();
    const row = createTestRow({ status: 'SIGNED_OFF', hasReports: true });
    expect(canPrint({ roles, flags, row })).toBe(true);
    expect(canEditHistory({ roles, flags, row })).toBe(false);
    expect(canAssignMulti({ roles, flags, row })).toBe(false);
    expect(canSeeTimelineButton({ roles, flags, row })).toBe(true);
    expect(canOpenHistoryEditOnSummary({ roles, flags, row })).toBe(false);
    expect(isDownloadAndPrintHidden({ roles, flags, row, teleUser: true })).toBe(false);
    expect(canMarkUrgent({ roles, flags, row, userCenterId: TEST_CENTER_ID })).toBe(false);
    expect(canEditStudyType({ roles, flags, row })).toBe(false);
  });
});

describe('canSetAuditStatus (the audit approve/reject switch; the assigned auditor only)', () => {
  it.each(statusTable(['SIGNED_OFF']))('assigned auditor on %s → %s', (status, ok) => {
    expect(canSetAuditStatus({ roles: ['ROLE_AUDITOR'], row: { status }, isAssignedAuditor: true })).toBe(ok);
  });
  it('refuses an auditor who is not the assigned one', () => {
    const row = { status: 'SIGNED_OFF' as const };
    expect(canSetAuditStatus({ roles: ['ROLE_AUDITOR'], row, isAssignedAuditor: false })).toBe(false);
  });
  it.each<TRole[]>([['ROLE_ADMIN'], ['ROLE_ASSIGNOR'], ['ROLE_DOCTOR']])(
    '%j, even if named as auditor, → false',
    (...roles) => {
      const row = { status: 'SIGNED_OFF' as const };
      expect(canSetAuditStatus({ roles, row, isAssignedAuditor: true })).toBe(false);
    },
  );
});

describe('canEditStudyDetails (the Edit details form: who may submit it)', () => {
  it.each<[TRole[], boolean]>([
    [['ROLE_CENTER'], true],
    [['ROLE_CENTER_CUSTOMER'], true],
    [['ROLE_TELE_RADIOLOGY'], true],
    [['ROLE_ADMIN'], true],
    [['ROLE_ASSIGNOR'], true],
    [['ROLE_VERIFIER'], true],
    [['ROLE_BILLER'], true],
    [['ROLE_DOCTOR'], false],
    [['ROLE_TYPIST'], false],
    [['ROLE_REFERRING_DOCTOR'], false],
    [['ROLE_AUDITOR'], false],
    [['ROLE_VIEWER'], false],
  ])('%j on CREATED → %s', (roles, ok) => {
    expect(
      canEditStudyDetails({ roles, flags: {}, row: { status: 'CREATED', centerId: 7 }, userCenterId: 7 }),
    ).toBe(ok);
  });
  it.each(statusTable(except('DELETED')))('center on %s → %s', (status, ok) => {
    expect(
      canEditStudyDetails({
        roles: ['ROLE_CENTER'],
        flags: {},
        row: { status, centerId: 7 },
        userCenterId: 7,
      }),
    ).toBe(ok);
  });
});
