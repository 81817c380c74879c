import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { REPORT_STATUSES } from './statuses.js';
import {
  STUDY_LIST_KINDS,
  type TStudyListKind,
  type TStudyTab,
  listCallPathForList,
  listKindForUser,
  resolveTab,
  tableKeyForList,
  tabsForList,
} from './tabs.js';

const OPEN = ['CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED'];
const labels = (tabs: readonly TStudyTab[]) => tabs.map((t) => t.label);
const byLabel = (tabs: readonly TStudyTab[], label: string) => {
  const found = tabs.find((t) => t.label === label);
  if (!found) throw new Error(`no tab ${label}`);
  return found;
};

describe('tab labels in order (spec-core §2 Study list screens)', () => {
  it.each<[TStudyListKind, string[]]>([
    [
      'admin',
      [
        'All',
        'Unassigned',
        'Assigned',
        'Pending',
        'Signed Off',
        'Urgent',
        'Reprint Needed',
        'My Reports',
        'My Pending',
      ],
    ],
    ['doctor', ['All', 'Pending', 'Signed Off', 'Urgent']],
    ['centerAddInfo', ['Pending', 'Sent', 'Ready Reports', 'Past Reports', 'Urgent', 'All']],
    ['center', ['All', 'Ready Reports', 'Urgent']],
    ['teleCenter', ['Pending', 'Sent', 'Ready Reports', 'Past Reports']],
  ])('%s list: %j', (kind, expected) => {
    expect(labels(tabsForList(kind))).toEqual(expected);
  });

  it('gives every tab of a list a distinct key', () => {
    for (const kind of STUDY_LIST_KINDS) {
      const keys = tabsForList(kind).map((t) => t.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe('doctor list Signed Off label (spec-core §2: Drafted for typists when the drafted setting is on)', () => {
  it.each([
    [true, true, 'Drafted'],
    [true, false, 'Signed Off'],
    [false, true, 'Signed Off'],
    [false, false, 'Signed Off'],
  ])('typist %s, drafted setting %s → %s, same statuses', (isTypist, draftedSetting, label) => {
    const tabs = tabsForList('doctor', { isTypist, draftedSetting });
    expect(labels(tabs)).toEqual(['All', 'Pending', label, 'Urgent']);
    expect(tabs[2]?.key).toBe('signedOff');
    expect(tabs[2]?.filter.statuses).toEqual(['SIGNED_OFF', 'REPORTED', 'DRAFTED']);
  });
});

describe('tab filters given by the spec (spec-core §4 Tab filters)', () => {
  it.each<[TStudyListKind, string, string[]]>([
    ['doctor', 'Pending', ['CREATED', 'HISTORY_CREATED', 'LOCKED']],
    ['doctor', 'Signed Off', ['SIGNED_OFF', 'REPORTED', 'DRAFTED']],
    ['admin', 'Signed Off', ['SIGNED_OFF']],
    ['teleCenter', 'Pending', ['CREATED']],
    ['teleCenter', 'Sent', ['HISTORY_CREATED', 'LOCKED']],
    ['teleCenter', 'Ready Reports', ['SIGNED_OFF']],
    ['teleCenter', 'Past Reports', ['SIGNED_OFF', 'DELETED']],
    ['centerAddInfo', 'Pending', ['CREATED']],
    ['centerAddInfo', 'Sent', ['HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED']],
    ['centerAddInfo', 'Ready Reports', ['SIGNED_OFF']],
  ])('%s %s = %j and nothing else', (kind, label, statuses) => {
    expect(byLabel(tabsForList(kind), label).filter).toEqual({ statuses });
  });
});

describe('tab filters the spec leaves open (decisions, as written in tabs.ts)', () => {
  it.each<[TStudyListKind, string, object]>([
    ['admin', 'All', {}],
    ['admin', 'Unassigned', { showUnassigned: true, statuses: OPEN }],
    ['admin', 'Assigned', { showAssigned: true, statuses: OPEN }],
    ['admin', 'Pending', { statuses: OPEN }],
    ['admin', 'Urgent', { showUrgent: true, statuses: OPEN }],
    ['admin', 'Reprint Needed', { showReprintNeeded: true, statuses: ['SIGNED_OFF'] }],
    ['admin', 'My Reports', { assignedTos: 'ME', statuses: ['SIGNED_OFF'] }],
    ['admin', 'My Pending', { assignedTos: 'ME', statuses: OPEN }],
    ['doctor', 'All', {}],
    ['doctor', 'Urgent', { showUrgent: true, statuses: OPEN }],
    ['center', 'All', {}],
    ['center', 'Ready Reports', { statuses: ['SIGNED_OFF'] }],
    ['center', 'Urgent', { showUrgent: true, statuses: OPEN }],
    ['centerAddInfo', 'Past Reports', { statuses: ['SIGNED_OFF', 'DELETED'] }],
    ['centerAddInfo', 'Urgent', { showUrgent: true, statuses: OPEN }],
    ['centerAddInfo', 'All', {}],
  ])('%s %s → %j', (kind, label, filter) => {
    expect(byLabel(tabsForList(kind), label).filter).toEqual(filter);
  });

  it('admin Pending and Signed Off split every live status between them', () => {
    const tabs = tabsForList('admin');
    const both = [
      ...(byLabel(tabs, 'Pending').filter.statuses ?? []),
      ...(byLabel(tabs, 'Signed Off').filter.statuses ?? []),
    ];
    expect(new Set(both)).toEqual(new Set(REPORT_STATUSES.filter((s) => s !== 'DELETED')));
    expect(both).toHaveLength(6);
  });

  it('center and tele tabs set only what POST /report-status/ takes (statuses, showUrgent)', () => {
    for (const kind of ['center', 'centerAddInfo', 'teleCenter'] as const) {
      for (const t of tabsForList(kind)) {
        expect(Object.keys(t.filter).every((k) => k === 'statuses' || k === 'showUrgent')).toBe(true);
      }
    }
  });

  it('no tab sets showPending (Pending tabs name their statuses)', () => {
    for (const kind of STUDY_LIST_KINDS) {
      for (const t of tabsForList(kind, { isTypist: true, draftedSetting: true })) {
        expect(t.filter.showPending).toBeUndefined();
      }
    }
  });
});

describe('resolveTab (spec-core §2 "The selected tab is remembered")', () => {
  const tabs = tabsForList('admin');
  it('opens the remembered tab when the list has it', () => {
    expect(resolveTab(tabs, 'myPending').label).toBe('My Pending');
  });
  it.each([null, undefined, '', 'sent', 'nonsense'])('falls back to the first tab for %j', (remembered) => {
    expect(resolveTab(tabs, remembered).key).toBe('all');
  });
  it('a key remembered on another list falls back there too', () => {
    expect(resolveTab(tabsForList('teleCenter'), 'all').key).toBe('pending');
  });
  it('refuses a list without tabs', () => {
    expect(() => resolveTab([], 'all')).toThrow();
  });
});

describe('listKindForUser (spec-core §2 Study list screens, Menu per role)', () => {
  const ask = (roles: TRole[], route: '/' | '/status', inMap = false, sharing = false) =>
    listKindForUser({ roles, hasDoctorRoleInUserMap: inMap }, { sharingDetailBeforeSend: sharing }, route);

  it.each<[TRole[], boolean, TStudyListKind | null]>([
    [['ROLE_ADMIN'], false, 'admin'],
    [['ROLE_ASSIGNOR'], false, 'admin'],
    [['ROLE_VERIFIER'], false, 'admin'],
    [['ROLE_BILLER'], false, 'admin'],
    [['ROLE_DOCTOR'], false, 'doctor'],
    [['ROLE_DOCTOR'], true, 'admin'],
    [['ROLE_TYPIST'], false, 'doctor'],
    [['ROLE_TYPIST'], true, 'doctor'],
    [['ROLE_REFERRING_DOCTOR'], false, 'doctor'],
    [['ROLE_AUDITOR'], false, 'doctor'],
    [['ROLE_DOCTOR', 'ROLE_ADMIN'], false, 'admin'],
    [['ROLE_CENTER'], false, null],
    [['ROLE_TELE_RADIOLOGY'], false, null],
    [['ROLE_GROUP'], false, null],
    [['ROLE_LABS_SUPERVISOR'], false, null],
    [[], false, null],
  ])("at '/': %j with doctor role in the user map %s → %s", (roles, inMap, kind) => {
    expect(ask(roles, '/', inMap)).toBe(kind);
  });

  it.each<[TRole[], boolean, TStudyListKind | null]>([
    [['ROLE_CENTER'], false, 'center'],
    [['ROLE_CENTER'], true, 'centerAddInfo'],
    [['ROLE_CENTER_CUSTOMER'], false, 'center'],
    [['ROLE_CENTER_CUSTOMER'], true, 'centerAddInfo'],
    [['ROLE_CENTER_BACKUP'], false, 'center'],
    [['ROLE_CENTER_SHARE_ALL'], true, 'centerAddInfo'],
    [['ROLE_TELE_RADIOLOGY'], false, 'teleCenter'],
    [['ROLE_TELE_RADIOLOGY'], true, 'teleCenter'],
    [['ROLE_TELE_RADIOLOGY', 'ROLE_CENTER'], false, 'teleCenter'],
    [['ROLE_OFFLINE_HYBRID'], false, null],
    [['ROLE_LABS_RECEPTIONIST'], false, null],
    [['ROLE_ADMIN'], false, null],
    [['ROLE_DOCTOR'], false, null],
  ])("at '/status': %j with sharingDetailBeforeSend %s → %s", (roles, sharing, kind) => {
    expect(ask(roles, '/status', false, sharing)).toBe(kind);
  });
});

describe('tableKeyForList and listCallPathForList (spec-core §9 table keys, §7 list calls)', () => {
  it.each<[TStudyListKind, string, string]>([
    ['admin', 'adminStudyList', '/dicom-web/studies/'],
    ['doctor', 'studyList', '/dicom-web/studies/'],
    ['center', 'centerReportList', '/report-status/'],
    ['centerAddInfo', 'centerReportList', '/report-status/'],
    ['teleCenter', 'centerReportList', '/report-status/'],
  ])('%s → %s via %s', (kind, tableKey, path) => {
    expect(tableKeyForList(kind)).toBe(tableKey);
    expect(listCallPathForList(kind)).toBe(path);
  });
});
