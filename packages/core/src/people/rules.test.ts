import { describe, expect, it } from 'vitest';
import { ROLES } from '../identity/roles.js';
import { canManagePeople } from '../identity/permissions.js';
import {
  MESSAGE_AE_TITLE_INVALID,
  aeTitleKey,
  aeTitleProblem,
  canGrantRoles,
  canManageUser,
  grantableRoles,
  needsCenter,
} from './rules.js';

describe('who manages people (issue 21 §9)', () => {
  it('the group admin and the admin; nobody else', () => {
    expect(canManagePeople(['ROLE_GROUP'])).toBe(true);
    expect(canManagePeople(['ROLE_ADMIN'])).toBe(true);
    for (const role of ROLES.filter((r) => r !== 'ROLE_GROUP' && r !== 'ROLE_ADMIN'))
      expect(canManagePeople([role]), role).toBe(false);
  });

  it('nobody grants a role above their own, nor the roles made elsewhere', () => {
    expect(canGrantRoles(['ROLE_ADMIN'], ['ROLE_GROUP'])).toBe(false);
    expect(canGrantRoles(['ROLE_ADMIN'], ['ROLE_ADMIN', 'ROLE_DOCTOR'])).toBe(true);
    expect(canGrantRoles(['ROLE_GROUP'], ['ROLE_GROUP'])).toBe(true);
    expect(canGrantRoles(['ROLE_DOCTOR'], ['ROLE_TYPIST'])).toBe(false);
    for (const made of ['ROLE_VIEWER', 'ROLE_CUSTOMER', 'ROLE_RADFLOW_SALES'] as const)
      expect(canGrantRoles(['ROLE_GROUP'], [made]), made).toBe(false);
    expect(grantableRoles(['ROLE_ADMIN'], ROLES)).not.toContain('ROLE_GROUP');
    expect(grantableRoles(['ROLE_GROUP'], ROLES)).toHaveLength(ROLES.length - 3);
  });

  it('an admin does not manage a group admin; a group admin manages an admin', () => {
    expect(canManageUser(['ROLE_ADMIN'], ['ROLE_GROUP'])).toBe(false);
    expect(canManageUser(['ROLE_ADMIN'], ['ROLE_DOCTOR', 'ROLE_GROUP'])).toBe(false);
    expect(canManageUser(['ROLE_GROUP'], ['ROLE_ADMIN'])).toBe(true);
    expect(canManageUser(['ROLE_ADMIN'], ['ROLE_DOCTOR'])).toBe(true);
  });

  it('center roles need a center', () => {
    expect(needsCenter(['ROLE_CENTER'])).toBe(true);
    expect(needsCenter(['ROLE_LABS_RECEPTIONIST'])).toBe(true);
    expect(needsCenter(['ROLE_DOCTOR', 'ROLE_TYPIST'])).toBe(false);
  });
});

describe('AE titles (PS3.5 AE)', () => {
  it('1 to 16 characters of the default repertoire, no backslash; spaces around do not count', () => {
    for (const ok of ['CT1', ' MR_ROOM-2 ', 'A', 'SIXTEEN_CHARS_AE', 'ae with space'])
      expect(aeTitleProblem(ok), ok).toBeNull();
    for (const bad of ['', '    ', 'SEVENTEEN_CHARS_X', 'A\\B', 'TAB\tX', 'NEW\nLINE', 'ÄRZTE'])
      expect(aeTitleProblem(bad), JSON.stringify(bad)).toBe(MESSAGE_AE_TITLE_INVALID);
  });

  it('two titles are the same one in any case and with spaces around', () => {
    expect(aeTitleKey(' ct1')).toBe(aeTitleKey('CT1 '));
    expect(aeTitleKey('CT1')).not.toBe(aeTitleKey('CT2'));
  });
});
