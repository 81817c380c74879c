import { describe, expect, it } from 'vitest';
import { isReportReadOnly } from '../reporting/rules.js';
import {
  ROLES,
  SALES_ROLE,
  type TRole,
  demoEmailForRole,
  effectiveRoles,
  hasRole,
  isAssignorBillerVerifier,
  isCenterUser,
  isRole,
  isViewerSession,
  isSoleDoctor,
  sortRolesForDisplay,
} from './roles.js';

/** spec-core §6 "Roles", in the spec's order, with ROLE_{product}_SALES as ROLE_RADFLOW_SALES. */
const SPEC_ROLES = [
  'ROLE_ADMIN',
  'ROLE_CENTER',
  'ROLE_DOCTOR',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_TYPIST',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_VERIFIER',
  'ROLE_ASSIGNOR',
  'ROLE_VIEWER',
  'ROLE_CUSTOMER',
  'ROLE_BILLER',
  'ROLE_TELE_RADIOLOGY',
  'ROLE_GROUP',
  'ROLE_AUDITOR',
  'ROLE_ADMIN_BILLER',
  'ROLE_RADFLOW_SALES',
  'ROLE_DASHBOARD_VIEWER',
  'ROLE_OFFLINE_HYBRID',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
];

describe('ROLES (spec-core §6)', () => {
  it('has exactly the 22 roles of the spec, in its order', () => {
    expect(SPEC_ROLES).toHaveLength(22);
    expect([...ROLES]).toEqual(SPEC_ROLES);
  });

  it('names the sales role after the product', () => {
    expect(SALES_ROLE).toBe('ROLE_RADFLOW_SALES');
    expect(isRole('ROLE_RADFLOW_SALES')).toBe(true);
    expect(isRole('ROLE_{product}_SALES')).toBe(false);
    expect(isRole('ROLE_SALES')).toBe(false);
  });

  it.each(SPEC_ROLES)('isRole(%s)', (role) => {
    expect(isRole(role)).toBe(true);
  });

  it.each(['', 'ADMIN', 'role_admin', 'ROLE_ADMIN ', 'ROLE_SUPERUSER'])('isRole(%j) is false', (value) => {
    expect(isRole(value)).toBe(false);
  });
});

describe('sortRolesForDisplay (spec-core §3 Current user: reverse-alphabetical)', () => {
  it('sorts reverse-alphabetically', () => {
    expect(sortRolesForDisplay(['ROLE_ADMIN', 'ROLE_VIEWER', 'ROLE_DOCTOR'])).toEqual([
      'ROLE_VIEWER',
      'ROLE_DOCTOR',
      'ROLE_ADMIN',
    ]);
  });

  it('puts a longer name that shares a prefix before the shorter one', () => {
    expect(
      sortRolesForDisplay([
        'ROLE_CENTER',
        'ROLE_CENTER_BACKUP',
        'ROLE_CENTER_SHARE_ALL',
        'ROLE_CENTER_CUSTOMER',
      ]),
    ).toEqual(['ROLE_CENTER_SHARE_ALL', 'ROLE_CENTER_CUSTOMER', 'ROLE_CENTER_BACKUP', 'ROLE_CENTER']);
    expect(sortRolesForDisplay(['ROLE_ADMIN', 'ROLE_ADMIN_BILLER'])).toEqual([
      'ROLE_ADMIN_BILLER',
      'ROLE_ADMIN',
    ]);
  });

  it('orders all 22 roles as the reverse of the code-point order', () => {
    const shuffled = [...ROLES].sort((a, b) => a.length - b.length);
    const sorted = sortRolesForDisplay(shuffled);
    expect(sorted).toHaveLength(22);
    for (let i = 1; i < sorted.length; i++) {
      expect(sorted[i - 1]! > sorted[i]!).toBe(true);
    }
  });

  it('drops duplicates and leaves its input alone', () => {
    const input: TRole[] = ['ROLE_DOCTOR', 'ROLE_ADMIN', 'ROLE_DOCTOR'];
    expect(sortRolesForDisplay(input)).toEqual(['ROLE_DOCTOR', 'ROLE_ADMIN']);
    expect(input).toEqual(['ROLE_DOCTOR', 'ROLE_ADMIN', 'ROLE_DOCTOR']);
  });
});

describe('effectiveRoles (spec-core §3: hybridModeOn replaces the roles)', () => {
  it('replaces every role by ROLE_OFFLINE_HYBRID when hybrid mode is on', () => {
    expect(effectiveRoles(['ROLE_CENTER', 'ROLE_DOCTOR'], true)).toEqual(['ROLE_OFFLINE_HYBRID']);
    expect(effectiveRoles([], true)).toEqual(['ROLE_OFFLINE_HYBRID']);
  });

  it('keeps the roles, sorted for display, when hybrid mode is off', () => {
    expect(effectiveRoles(['ROLE_CENTER', 'ROLE_DOCTOR'], false)).toEqual(['ROLE_DOCTOR', 'ROLE_CENTER']);
  });
});

describe('hasRole', () => {
  it('is true when any of the wanted roles is held', () => {
    expect(hasRole(['ROLE_TYPIST'], 'ROLE_DOCTOR', 'ROLE_TYPIST')).toBe(true);
    expect(hasRole(['ROLE_TYPIST'], 'ROLE_DOCTOR')).toBe(false);
  });
});

describe('isViewerSession (a shared link opened)', () => {
  it('is the viewer role, alone or beside others', () => {
    expect(isViewerSession(['ROLE_VIEWER'])).toBe(true);
    expect(isViewerSession(['ROLE_CUSTOMER', 'ROLE_VIEWER'])).toBe(true);
    expect(isViewerSession(['ROLE_DOCTOR'])).toBe(false);
  });
});

describe('isSoleDoctor (spec-core §6 "Only a sole doctor counts as a radiologist")', () => {
  it.each<[TRole[], boolean]>([
    [['ROLE_DOCTOR'], true],
    [['ROLE_DOCTOR', 'ROLE_DOCTOR'], true],
    [['ROLE_DOCTOR', 'ROLE_ADMIN'], false],
    [['ROLE_ADMIN', 'ROLE_DOCTOR'], false],
    [['ROLE_DOCTOR', 'ROLE_TYPIST'], false],
    [['ROLE_TYPIST'], false],
    [['ROLE_REFERRING_DOCTOR'], false],
    [[], false],
  ])('%j → %s', (roles, expected) => {
    expect(isSoleDoctor(roles)).toBe(expected);
  });
});

describe('isCenterUser (spec-core §6: center users skip the login audit)', () => {
  // The center-side roles; the lab roles belong to a center but sign in through the audit.
  const centerUsers: TRole[] = [
    'ROLE_CENTER',
    'ROLE_CENTER_CUSTOMER',
    'ROLE_CENTER_BACKUP',
    'ROLE_CENTER_SHARE_ALL',
    'ROLE_OFFLINE_HYBRID',
  ];

  it.each(ROLES.map((role) => [role, centerUsers.includes(role)] as const))('%s → %s', (role, expected) => {
    expect(isCenterUser([role])).toBe(expected);
  });

  it('holds for a user with any center role among others', () => {
    expect(isCenterUser(['ROLE_DOCTOR', 'ROLE_CENTER'])).toBe(true);
    expect(isCenterUser(['ROLE_DOCTOR', 'ROLE_LABS_SUPERVISOR'])).toBe(false);
    expect(isCenterUser([])).toBe(false);
  });
});

describe('isAssignorBillerVerifier (spec-core §6)', () => {
  it.each(
    ROLES.map((role) => [role, ['ROLE_ASSIGNOR', 'ROLE_BILLER', 'ROLE_VERIFIER'].includes(role)] as const),
  )('%s → %s', (role, expected) => {
    expect(isAssignorBillerVerifier([role])).toBe(expected);
  });
});

describe('report read-only roles (spec-core §5)', () => {
  // Referring doctor, auditor, customer, viewer, lab supervisor and lab receptionist read reports and
  // never write them: asked of the rule the report calls use, for every role.
  const SPEC_READ_ONLY: readonly TRole[] = [
    'ROLE_REFERRING_DOCTOR',
    'ROLE_AUDITOR',
    'ROLE_CUSTOMER',
    'ROLE_VIEWER',
    'ROLE_LABS_SUPERVISOR',
    'ROLE_LABS_RECEPTIONIST',
  ];
  it.each(ROLES.map((role) => [role, SPEC_READ_ONLY.includes(role)] as const))(
    '%s alone is read-only: %s',
    (role, readOnly) => {
      expect(isReportReadOnly([role])).toBe(readOnly);
    },
  );
});

describe('demoEmailForRole (issue 2 §6)', () => {
  const expected: Record<TRole, string> = {
    ROLE_ADMIN: 'admin@demo.local',
    ROLE_CENTER: 'center@demo.local',
    ROLE_DOCTOR: 'doctor@demo.local',
    ROLE_CENTER_CUSTOMER: 'center-customer@demo.local',
    ROLE_REFERRING_DOCTOR: 'referring-doctor@demo.local',
    ROLE_TYPIST: 'typist@demo.local',
    ROLE_LABS_SUPERVISOR: 'labs-supervisor@demo.local',
    ROLE_LABS_RECEPTIONIST: 'labs-receptionist@demo.local',
    ROLE_VERIFIER: 'verifier@demo.local',
    ROLE_ASSIGNOR: 'assignor@demo.local',
    ROLE_VIEWER: 'viewer@demo.local',
    ROLE_CUSTOMER: 'customer@demo.local',
    ROLE_BILLER: 'biller@demo.local',
    ROLE_TELE_RADIOLOGY: 'tele-radiology@demo.local',
    ROLE_GROUP: 'group@demo.local',
    ROLE_AUDITOR: 'auditor@demo.local',
    ROLE_ADMIN_BILLER: 'admin-biller@demo.local',
    ROLE_RADFLOW_SALES: 'radflow-sales@demo.local',
    ROLE_DASHBOARD_VIEWER: 'dashboard-viewer@demo.local',
    ROLE_OFFLINE_HYBRID: 'offline-hybrid@demo.local',
    ROLE_CENTER_BACKUP: 'center-backup@demo.local',
    ROLE_CENTER_SHARE_ALL: 'center-share-all@demo.local',
  };

  it.each(ROLES.map((role) => [role, expected[role]] as const))('%s → %s', (role, email) => {
    expect(demoEmailForRole(role)).toBe(email);
  });

  it('gives every role its own account', () => {
    expect(new Set(ROLES.map(demoEmailForRole)).size).toBe(ROLES.length);
  });
});
