import { describe, expect, it } from 'vitest';
import { TABLE_KEYS, type TTableKey } from '../common/constants.js';
import type { TRole } from '../identity/roles.js';
import {
  DEFAULT_COLUMNS,
  STUDY_COLUMN_CATALOGUE,
  STUDY_COLUMN_IDS,
  type TColumnContext,
  type TStudyColumnId,
  columnLabel,
  columnsHiddenBySettings,
  PINNED_COLUMNS,
  isPinnedColumn,
  resolveColumns,
  toSavedColumns,
} from './columns.js';
import { createTestFlags } from './test-builders.js';

const ctx = (
  roles: TRole[] = ['ROLE_ADMIN'],
  over: Parameters<typeof createTestFlags>[0] = {},
): TColumnContext => ({
  roles,
  flags: createTestFlags({ showAssignedToInSummaryPage: true, ...over }),
});
const ids = (cols: { colName: string }[]) => cols.map((c) => c.colName);

describe('the column catalogue (spec-core §2 Study table columns)', () => {
  it('names every column of the spec once', () => {
    expect(new Set(STUDY_COLUMN_IDS).size).toBe(STUDY_COLUMN_CATALOGUE.length);
    expect(STUDY_COLUMN_IDS).toEqual(
      expect.arrayContaining<TStudyColumnId>([
        'referral',
        'department',
        'tag',
        'id',
        'history',
        'reportStatus',
        'studyType',
        'imageCount',
        'age',
        'patientId',
        'originReferenceId',
        'studyName',
        'radiologyCenter',
        'patient',
        'email',
        'identifier',
        'contactNo',
        'created',
        'studyDate',
        'status',
        'payment',
        'proxyUrl',
        'specialUploadUrl',
        'imageUploadStatus',
        'assigned',
        'signedOffDate',
        'uploadedDate',
        'center',
        'report',
        'share',
        'actions',
        'parentId',
        'risCreatedDate',
        'risBillCategories',
        'risPriorities',
        'risReferringDoctor',
        'risUhid',
        'risMobile',
        'invoiceNumber',
        'risBillingStatus',
        'auditor',
        'auditApproval',
        'uploadStudy',
        'activeInViewer',
      ]),
    );
    expect(STUDY_COLUMN_IDS).toHaveLength(44);
  });

  it('labels columns', () => {
    expect(columnLabel('contactNo')).toBe('Contact No.');
    expect(columnLabel('imageCount')).toBe('Series/Images');
  });

  it('offers only catalogue columns, each once, in every table', () => {
    for (const key of TABLE_KEYS) {
      const list = DEFAULT_COLUMNS[key].map(([id]) => id);
      expect(new Set(list).size).toBe(list.length);
      for (const id of list) expect(STUDY_COLUMN_IDS).toContain(id);
    }
  });

  it('shows the audit switch on the doctor-style list to an auditor (spec-core §2 audit columns)', () => {
    const auditor = resolveColumns('studyList', undefined, ctx(['ROLE_AUDITOR']));
    const shownIds = auditor.filter((c) => c.visible).map((c) => c.colName);
    expect(shownIds).toContain('auditApproval');
    expect(shownIds).not.toContain('assigned');
    const doctor = resolveColumns('studyList', undefined, ctx(['ROLE_DOCTOR']));
    expect(doctor.find((c) => c.colName === 'auditApproval')?.visible).toBe(false);
    expect(DEFAULT_COLUMNS.adminStudyList).toEqual(
      expect.arrayContaining([
        ['auditor', false],
        ['auditApproval', false],
      ]),
    );
  });

  it('gives the summary the columns of spec-core §2 Summary screen in its order', () => {
    expect(DEFAULT_COLUMNS.doctorSummary).toEqual([
      ['id', true],
      ['patient', true],
      ['patientId', false],
      ['invoiceNumber', false],
      ['studyName', true],
      ['history', true],
      ['reportStatus', true],
      ['center', true],
      ['assigned', true],
      ['referral', true],
      ['share', true],
      ['studyDate', true],
      ['uploadedDate', true],
      ['signedOffDate', true],
      ['report', true],
    ]);
  });
});

describe('columnsHiddenBySettings (spec-core §2, §3 group settings)', () => {
  it.each<[string, TRole[], Parameters<typeof createTestFlags>[0], TTableKey, TStudyColumnId[]]>([
    ['nothing by default', ['ROLE_ADMIN'], {}, 'adminStudyList', []],
    ['study date', ['ROLE_ADMIN'], { hideStudyDateColumn: true }, 'adminStudyList', ['studyDate']],
    ['uploaded date', ['ROLE_ADMIN'], { hideUploadedAtColumn: true }, 'adminStudyList', ['uploadedDate']],
    [
      'assigned by hideSummaryPage',
      ['ROLE_ADMIN'],
      { hideSummaryPage: true },
      'adminStudyList',
      ['assigned'],
    ],
    [
      'assigned for a center',
      ['ROLE_CENTER'],
      { hideAssignedToForCenter: true },
      'centerReportList',
      ['assigned'],
    ],
    ['not for a non-center', ['ROLE_ADMIN'], { hideAssignedToForCenter: true }, 'adminStudyList', []],
    [
      'center for a verifier',
      ['ROLE_VERIFIER'],
      { hideCenterColumnForVerifier: true },
      'adminStudyList',
      ['center', 'radiologyCenter'],
    ],
    [
      'not for a non-verifier',
      ['ROLE_ASSIGNOR'],
      { hideCenterColumnForVerifier: true },
      'adminStudyList',
      [],
    ],
    [
      'summary assigned without showAssignedToInSummaryPage',
      ['ROLE_DOCTOR'],
      { showAssignedToInSummaryPage: false },
      'doctorSummary',
      ['assigned'],
    ],
    ['summary assigned with it', ['ROLE_DOCTOR'], { showAssignedToInSummaryPage: true }, 'doctorSummary', []],
    [
      'showAssignedToInSummaryPage is the summary only',
      ['ROLE_DOCTOR'],
      { showAssignedToInSummaryPage: false },
      'studyList',
      [],
    ],
  ])('%s', (_name, roles, flags, key, hidden) => {
    // Who was last active in the viewer is its own case below.
    const actual = [...columnsHiddenBySettings(key, { roles, flags: createTestFlags(flags) })].filter(
      (id) => id !== 'activeInViewer',
    );
    expect(actual.sort()).toEqual([...hidden].sort());
  });

  it('shows who was last active in the viewer to assignors of a group with showActiveInViewer only', () => {
    const hides = (roles: TRole[], showActiveInViewer: boolean) =>
      columnsHiddenBySettings('adminStudyList', {
        roles,
        flags: createTestFlags({ showActiveInViewer }),
      }).has('activeInViewer');
    expect(hides(['ROLE_ASSIGNOR'], true)).toBe(false);
    expect(hides(['ROLE_ASSIGNOR'], false)).toBe(true);
    expect(hides(['ROLE_ADMIN'], true)).toBe(true);
    expect(hides(['ROLE_VERIFIER'], true)).toBe(true);
  });
});

describe('resolveColumns (spec-core §2 column choice per table key)', () => {
  it('gives the defaults when nothing is saved', () => {
    for (const key of TABLE_KEYS) {
      const cols = resolveColumns(key, undefined, ctx());
      // activeInViewer is for assignors with showActiveInViewer (below); ctx() is an admin.
      expect(cols.map((c) => [c.colName, c.visible])).toEqual(
        DEFAULT_COLUMNS[key].filter(([id]) => id !== 'activeInViewer'),
      );
      expect(cols.map((c) => c.index)).toEqual(cols.map((_, i) => i));
    }
  });

  it('keeps the saved order and visibility, appends new columns, drops unknown and repeated ones', () => {
    const saved = [
      { colName: 'patient', visible: false, index: 2 },
      { colName: 'gone', visible: true, index: 0 },
      { colName: 'id', visible: true, index: 1 },
      { colName: 'uploadStudy', visible: true, index: 3 }, // not offered by the doctor list
      { colName: 'id', visible: false, index: 4 },
    ];
    const cols = resolveColumns('studyList', saved, ctx(['ROLE_DOCTOR']));
    expect(cols.slice(0, 2)).toEqual([
      { colName: 'id', label: 'Id', visible: true, index: 0 },
      { colName: 'patient', label: 'Patient', visible: false, index: 1 },
    ]);
    const rest = DEFAULT_COLUMNS.studyList.filter(([id]) => id !== 'id' && id !== 'patient');
    expect(cols.slice(2).map((c) => [c.colName, c.visible])).toEqual(rest);
    expect(ids(cols)).not.toContain('gone');
    expect(ids(cols)).not.toContain('uploadStudy');
    expect(cols.map((c) => c.index)).toEqual(cols.map((_, i) => i));
  });

  it('applies the hides after the saved choice: a user cannot bring a hidden column back', () => {
    const saved = [{ colName: 'studyDate', visible: true, index: 0 }];
    expect(ids(resolveColumns('adminStudyList', saved, ctx()))[0]).toBe('studyDate');
    expect(
      ids(resolveColumns('adminStudyList', saved, ctx(['ROLE_ADMIN'], { hideStudyDateColumn: true }))),
    ).not.toContain('studyDate');
  });

  it('round-trips through toSavedColumns', () => {
    const cols = resolveColumns(
      'centerReportList',
      [{ colName: 'share', visible: false, index: 0 }],
      ctx(['ROLE_CENTER']),
    );
    const saved = toSavedColumns(cols);
    expect(saved[0]).toEqual({ colName: 'share', visible: false, index: 0 });
    expect(resolveColumns('centerReportList', saved, ctx(['ROLE_CENTER']))).toEqual(cols);
  });
});

describe('default columns that fit the screen (issue 21 §5, §6)', () => {
  const LIST_KEYS = ['studyList', 'adminStudyList', 'centerReportList'] as const;
  const visibleIds = (key: TTableKey, roles: TRole[]) =>
    resolveColumns(key, undefined, ctx(roles))
      .filter((c) => c.visible)
      .map((c) => c.colName);

  it('shows a doctor who each study is assigned to on their list', () => {
    expect(visibleIds('studyList', ['ROLE_DOCTOR'])).toContain('assigned');
    expect(visibleIds('adminStudyList', ['ROLE_DOCTOR'])).toContain('assigned');
  });

  it('shows at most eight columns by default on every study list, the actions among them', () => {
    const users: TRole[][] = [
      ['ROLE_DOCTOR'],
      ['ROLE_TYPIST'],
      ['ROLE_AUDITOR'],
      ['ROLE_ADMIN'],
      ['ROLE_CENTER'],
    ];
    for (const key of LIST_KEYS)
      for (const roles of users) {
        const shownIds = visibleIds(key, roles);
        expect(shownIds, `${key} ${roles.join()}`).toContain('actions');
        expect(shownIds.length, `${key} ${roles.join()}`).toBeLessThanOrEqual(8);
      }
  });

  it('keeps a saved choice as it was saved, whatever the defaults say now', () => {
    // What the dialog saves: every column of the table, in order, each with its visibility.
    const mine = ['id', 'patient', 'history', 'tag', 'center', 'report', 'actions'];
    const all = DEFAULT_COLUMNS.studyList.map(([id]) => id);
    const saved = [...mine, ...all.filter((id) => !mine.includes(id))].map((colName, index) => ({
      colName,
      visible: mine.includes(colName),
      index,
    }));
    const cols = resolveColumns('studyList', saved, ctx(['ROLE_DOCTOR']));
    expect(cols.filter((c) => c.visible).map((c) => c.colName)).toEqual(mine);
  });

  it('pins the actions column', () => {
    expect(PINNED_COLUMNS).toEqual(['actions']);
    expect(isPinnedColumn('actions')).toBe(true);
    expect(isPinnedColumn('patient')).toBe(false);
  });
});
