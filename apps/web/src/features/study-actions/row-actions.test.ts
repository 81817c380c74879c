import {
  WORKLIST_MESSAGES,
  defaultPreferences,
  groupFlags,
  type TGroupFlags,
  type TRole,
} from '@radflow/core';
import { describe, expect, it } from 'vitest';
import {
  offeredRowActions,
  reportEditPath,
  splitInlineActions,
  urgentLabel,
  viewEntryOf,
  viewerPath,
  type TActor,
  type TRowActionKey,
} from './row-actions';
import { buildStudyRow } from '../../test/study-row';

function actor(roles: TRole[], flags: Partial<TGroupFlags> = {}, over: Partial<TActor> = {}): TActor {
  return {
    roles,
    flags: { ...groupFlags(defaultPreferences()), ...flags },
    teleUser: false,
    email: 'me@demo.local',
    ...over,
  };
}

const keysOf = (a: TActor, row = buildStudyRow()) => offeredRowActions(a, row).map((x) => x.key);
const enabledOf = (a: TActor, row: ReturnType<typeof buildStudyRow>, key: TRowActionKey) =>
  offeredRowActions(a, row).find((x) => x.key === key)?.enabled;

describe('offeredRowActions', () => {
  it('offers a center user urgent, delete and the details form on a CREATED study, not assign or unlock', () => {
    const keys = keysOf(actor(['ROLE_CENTER'], {}, { centerId: 3 }), buildStudyRow({ centerId: 3 }));
    expect(keys).toEqual(
      expect.arrayContaining(['view', 'editDetails', 'attachments', 'share', 'urgent', 'delete', 'history']),
    );
    expect(keys).not.toContain('assignDoctor');
    expect(keys).not.toContain('unlock');
    expect(keys).not.toContain('rework');
  });

  it("offers a share-all center user no center action on another center's study (core actingRoles)", () => {
    const shareAll = actor(['ROLE_CENTER_SHARE_ALL'], { allowToSplitStudy: true }, { centerId: 3 });
    const centerActions = ['editDetails', 'share', 'tags', 'urgent', 'delete', 'split'];
    expect(keysOf(shareAll, buildStudyRow({ centerId: 3 }))).toEqual(expect.arrayContaining(centerActions));
    const elsewhere = keysOf(shareAll, buildStudyRow({ centerId: 4 }));
    expect(elsewhere).toContain('view');
    for (const key of centerActions) expect(elsewhere).not.toContain(key);
    // A row without its center is nobody's own.
    expect(keysOf(shareAll, buildStudyRow())).not.toContain('urgent');
  });

  it('follows core on who deletes: an admin may not delete while the hide-deleted setting is off', () => {
    expect(keysOf(actor(['ROLE_ADMIN']))).not.toContain('delete');
    expect(keysOf(actor(['ROLE_ADMIN'], {}, { hideDeletedSetting: true }))).toContain('delete');
  });

  it('offers assign to an assignor on an open study, and the auditor only on SIGNED_OFF with the feature on', () => {
    const assignor = actor(['ROLE_ASSIGNOR'], { enableAuditorAssignmentFeature: true });
    expect(keysOf(assignor)).toContain('assignDoctor');
    expect(keysOf(assignor)).not.toContain('assignAuditor');
    const signedOff = buildStudyRow({ status: 'SIGNED_OFF' });
    expect(keysOf(assignor, signedOff)).toContain('assignAuditor');
    expect(keysOf(assignor, signedOff)).not.toContain('assignDoctor');
    expect(keysOf(actor(['ROLE_ASSIGNOR']), signedOff)).not.toContain('assignAuditor');
  });

  it('offers unlock to a doctor unless hideUnlockFromDoctor, and rework only when enabled', () => {
    const locked = buildStudyRow({ status: 'LOCKED' });
    expect(keysOf(actor(['ROLE_DOCTOR']), locked)).toContain('unlock');
    expect(keysOf(actor(['ROLE_DOCTOR'], { hideUnlockFromDoctor: true }), locked)).not.toContain('unlock');
    expect(keysOf(actor(['ROLE_DOCTOR']), locked)).not.toContain('rework');
    expect(keysOf(actor(['ROLE_DOCTOR'], { enableReportRework: true }), locked)).toContain('rework');
    expect(keysOf(actor(['ROLE_TELE_RADIOLOGY']), locked)).toContain('rework');
  });

  it('offers split only with allowToSplitStudy on a study not split yet', () => {
    expect(keysOf(actor(['ROLE_ADMIN']))).not.toContain('split');
    const admin = actor(['ROLE_ADMIN'], { allowToSplitStudy: true });
    expect(keysOf(admin)).toContain('split');
    expect(keysOf(admin, buildStudyRow({ hasSplitChild: true }))).not.toContain('split');
    expect(keysOf(admin, buildStudyRow({ splitFromReportStatusId: 7 }))).not.toContain('split');
  });

  it('leaves only view, a disabled report button and print on a DELETED study', () => {
    const deleted = buildStudyRow({ status: 'DELETED', hasReports: true });
    const offered = offeredRowActions(actor(['ROLE_ADMIN'], { allowToSplitStudy: true }), deleted);
    expect(offered).toEqual([
      { key: 'view', enabled: true },
      { key: 'report', enabled: false },
      { key: 'print', enabled: true },
    ]);
  });

  it('enables print only with reports on SIGNED_OFF, and hides it for a tele-user doctor', () => {
    const center = actor(['ROLE_CENTER']);
    expect(enabledOf(center, buildStudyRow({ status: 'SIGNED_OFF', hasReports: true }), 'print')).toBe(true);
    expect(enabledOf(center, buildStudyRow({ status: 'SIGNED_OFF', hasReports: false }), 'print')).toBe(
      false,
    );
    expect(enabledOf(center, buildStudyRow({ status: 'REPORTED', hasReports: true }), 'print')).toBe(false);
    const teleDoctor = actor(['ROLE_DOCTOR'], {}, { teleUser: true });
    expect(keysOf(teleDoctor, buildStudyRow({ status: 'SIGNED_OFF', hasReports: true }))).not.toContain(
      'print',
    );
  });

  it('gives read-only roles no report button, no details form and no tags', () => {
    const keys = keysOf(actor(['ROLE_REFERRING_DOCTOR']));
    expect(keys).not.toContain('report');
    expect(keys).not.toContain('editDetails');
    expect(keysOf(actor(['ROLE_VIEWER']))).not.toContain('tags');
  });

  it('drops the report button when the user hides it (hideStudyListReportButton)', () => {
    expect(keysOf(actor(['ROLE_DOCTOR']))).toContain('report');
    expect(keysOf(actor(['ROLE_DOCTOR'], {}, { hideReportButton: true }))).not.toContain('report');
  });

  it('offers the QR code only once the study has a share link', () => {
    expect(keysOf(actor(['ROLE_CENTER']))).not.toContain('qrCode');
    expect(keysOf(actor(['ROLE_CENTER']), buildStudyRow({ shareLink: 'abc' }))).toContain('qrCode');
  });
});

describe('splitInlineActions', () => {
  it("puts a list's everyday actions on the row and the rest in the menu, keeping order", () => {
    const offered = offeredRowActions(actor(['ROLE_ASSIGNOR']), buildStudyRow());
    const { inline, menu } = splitInlineActions(offered, 'admin');
    expect(inline.map((a) => a.key)).toEqual(['view', 'report', 'assignDoctor']);
    expect(menu.map((a) => a.key)).not.toContain('view');
    expect([...inline, ...menu]).toHaveLength(offered.length);
  });

  it('puts the disabled report button of a deleted row on the row and draws no menu (spec-core §4)', () => {
    const deleted = buildStudyRow({ status: 'DELETED' });
    const { inline, menu } = splitInlineActions(offeredRowActions(actor(['ROLE_CENTER']), deleted), 'center');
    expect(inline).toContainEqual({ key: 'report', enabled: false });
    expect(inline.find((a) => a.key === 'view')?.enabled).toBe(true);
    expect(menu).toEqual([]);
  });

  it('keeps a menu that has at least one enabled action, greyed ones included', () => {
    const offered = [
      { key: 'view', enabled: true },
      { key: 'print', enabled: false },
      { key: 'tags', enabled: true },
    ] as const;
    expect(splitInlineActions(offered, 'doctor').menu).toEqual([
      { key: 'print', enabled: false },
      { key: 'tags', enabled: true },
    ]);
    expect(splitInlineActions(offered.slice(0, 2), 'doctor').menu).toEqual([]);
  });
});

describe("viewEntryOf (the viewer's own entry rule)", () => {
  it.each([
    [{ status: 'DELETED' as const }, { allowed: false, message: WORKLIST_MESSAGES.studyDeleted }],
    [
      { count: { series: 0, images: 0 } },
      { allowed: false, message: 'Study not uploaded, please contact center' },
    ],
    [
      { lastUploadCompletedAt: null },
      { allowed: true, message: 'Study is not fully uploaded. please check with center' },
    ],
    [{ lastUploadCompletedAt: null, apiVersion: 1 }, { allowed: true }],
    [{}, { allowed: true }],
  ])('%j → %j', (over, expected) => {
    expect(viewEntryOf(buildStudyRow(over))).toEqual(expected);
  });
});

describe('paths and labels', () => {
  it('builds the viewer and editor routes of spec-core §2 with the api version', () => {
    const row = buildStudyRow({ id: 42, instanceId: '1.2.3', apiVersion: 2 });
    expect(viewerPath(row, { kind: 'light' })).toBe('/viewer/1.2.3/42?v=2');
    expect(viewerPath(row, { kind: 'diagnostic' })).toBe('/viewer/1.2.3/42?v=2&d=1');
    expect(viewerPath(row, { kind: 'diagnostic', popup: true })).toBe('/viewer/1.2.3/42?v=2&p=1&d=1');
    expect(reportEditPath(row)).toBe('/report-edit/1.2.3/42?v=2');
  });

  it('names the urgent toggle by what it will do', () => {
    expect(urgentLabel({ urgent: false })).toBe('Mark urgent');
    expect(urgentLabel({ urgent: true })).toBe('Remove urgent');
  });
});
