import { describe, expect, it } from 'vitest';
import { ROLES, type TRole } from './roles.js';
import {
  canManageGroupSettings,
  canUseApiToken,
  canManageLoginAudit,
  isTeleUser,
  needsDeviceApproval,
} from './permissions.js';

describe('device approval applies to whom (spec-core §6)', () => {
  const skipped: TRole[] = [
    'ROLE_CENTER',
    'ROLE_CENTER_CUSTOMER',
    'ROLE_CENTER_BACKUP',
    'ROLE_CENTER_SHARE_ALL',
    'ROLE_OFFLINE_HYBRID',
    'ROLE_GROUP',
  ];
  for (const role of ROLES) {
    it(`${role} ${skipped.includes(role) ? 'skips' : 'needs'} approval`, () => {
      expect(needsDeviceApproval([role])).toBe(!skipped.includes(role));
    });
  }
  it('a doctor who is also a center user skips it', () => {
    expect(needsDeviceApproval(['ROLE_DOCTOR', 'ROLE_CENTER'])).toBe(false);
  });
});

describe('group management rules', () => {
  it('the login audit and group settings belong to the group role and admins', () => {
    for (const role of ROLES) {
      const expected = role === 'ROLE_GROUP' || role === 'ROLE_ADMIN';
      expect(canManageLoginAudit([role])).toBe(expected);
      expect(canManageGroupSettings([role])).toBe(expected);
    }
  });
  it('only tele-radiology users are tele users', () => {
    expect(ROLES.filter((r) => isTeleUser([r]))).toEqual(['ROLE_TELE_RADIOLOGY']);
  });
});

describe('canUseApiToken', () => {
  it('lets the roles that use DICOMweb clients hold a token, not customers, viewers or non-study roles', () => {
    expect(canUseApiToken(['ROLE_DOCTOR'])).toBe(true);
    expect(canUseApiToken(['ROLE_CENTER'])).toBe(true);
    expect(canUseApiToken(['ROLE_CUSTOMER'])).toBe(false);
    expect(canUseApiToken(['ROLE_VIEWER'])).toBe(false);
    expect(canUseApiToken(['ROLE_DASHBOARD_VIEWER'])).toBe(false);
    expect(canUseApiToken(['ROLE_CUSTOMER', 'ROLE_DOCTOR'])).toBe(true);
  });
});
