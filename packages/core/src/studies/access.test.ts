import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { isGroupWide, studyScopeOf } from './access.js';

const user = (roles: TRole[], over: { centerId?: number | null; mobileNumber?: string | null } = {}) => ({
  id: 7,
  roles,
  groupId: 3,
  centerId: over.centerId ?? null,
  mobileNumber: over.mobileNumber ?? null,
});

describe('studyScopeOf', () => {
  it('gives group staff the whole group', () => {
    for (const role of [
      'ROLE_ADMIN',
      'ROLE_GROUP',
      'ROLE_ASSIGNOR',
      'ROLE_VERIFIER',
      'ROLE_BILLER',
      'ROLE_ADMIN_BILLER',
    ] as const) {
      expect(studyScopeOf(user([role]))).toEqual({ groupId: 3, grants: [{ kind: 'group' }] });
    }
  });

  it('gives a doctor their own studies, their mapped doctors’ and the pool', () => {
    expect(studyScopeOf(user(['ROLE_DOCTOR'])).grants).toEqual([
      { kind: 'assignedTo', userId: 7 },
      { kind: 'mappedDoctors', userId: 7 },
      { kind: 'doctorPool' },
    ]);
  });

  it('gives a typist their doctors’ studies and no pool', () => {
    expect(studyScopeOf(user(['ROLE_TYPIST'])).grants).toEqual([{ kind: 'mappedDoctors', userId: 7 }]);
  });

  it('gives auditors, referring doctors and customers only what names them', () => {
    expect(studyScopeOf(user(['ROLE_AUDITOR'])).grants).toEqual([{ kind: 'auditor', userId: 7 }]);
    expect(studyScopeOf(user(['ROLE_REFERRING_DOCTOR'])).grants).toEqual([
      { kind: 'referringDoctor', userId: 7 },
    ]);
    expect(studyScopeOf(user(['ROLE_CUSTOMER'], { mobileNumber: '9876500012' })).grants).toEqual([
      { kind: 'customerMobile', mobileNumber: '9876500012' },
    ]);
    // A customer without a mobile number has nothing to match.
    expect(studyScopeOf(user(['ROLE_CUSTOMER'])).grants).toEqual([]);
  });

  it('keeps a center account to its center, except share-all which sees the group', () => {
    for (const role of ['ROLE_CENTER', 'ROLE_CENTER_BACKUP', 'ROLE_CENTER_CUSTOMER', 'ROLE_ADMIN'] as const) {
      expect(studyScopeOf(user([role], { centerId: 5 })).grants).toEqual([{ kind: 'center', centerId: 5 }]);
    }
    expect(isGroupWide(studyScopeOf(user(['ROLE_CENTER_SHARE_ALL'], { centerId: 5 })))).toBe(true);
  });

  it('gives tele-radiology their center, or their mapped centers when they have none', () => {
    expect(studyScopeOf(user(['ROLE_TELE_RADIOLOGY'], { centerId: 5 })).grants).toEqual([
      { kind: 'center', centerId: 5 },
    ]);
    expect(studyScopeOf(user(['ROLE_TELE_RADIOLOGY'])).grants).toEqual([{ kind: 'teleCenters', userId: 7 }]);
  });

  it('unites the grants of several roles, the group grant holding all others', () => {
    expect(studyScopeOf(user(['ROLE_DOCTOR', 'ROLE_AUDITOR'])).grants).toContainEqual({
      kind: 'auditor',
      userId: 7,
    });
    expect(studyScopeOf(user(['ROLE_DOCTOR', 'ROLE_ADMIN'])).grants).toEqual([{ kind: 'group' }]);
  });

  it('gives a viewer account the studies shared with its e-mail, and sales nothing', () => {
    expect(studyScopeOf({ ...user(['ROLE_VIEWER']), email: 'v@x.in' }).grants).toEqual([
      { kind: 'sharedEmail', email: 'v@x.in' },
    ]);
    expect(studyScopeOf({ ...user(['ROLE_RADFLOW_SALES']), email: 's@x.in' }).grants).toEqual([]);
  });

  it('gives viewers without an e-mail, sales and dashboard viewers nothing', () => {
    for (const role of ['ROLE_VIEWER', 'ROLE_RADFLOW_SALES', 'ROLE_DASHBOARD_VIEWER'] as const) {
      expect(studyScopeOf(user([role])).grants).toEqual([]);
    }
  });
});
