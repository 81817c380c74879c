import { describe, expect, it } from 'vitest';
import { REPORT_READ_ONLY_ROLES, type TRole } from '../identity/roles.js';
import { canAnnotateStudy, canChangeAnnotation } from './annotate.js';

const own = { centerId: 7, status: 'CREATED' };
const can = (roles: TRole[], row = own, userCenterId: number | null = null) =>
  canAnnotateStudy({ roles, row, userCenterId });

describe('canAnnotateStudy (issue 5 §2, spec-core §5/§6 read-only roles)', () => {
  it('lets readers who work on the study annotate', () => {
    for (const role of ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_ADMIN', 'ROLE_ASSIGNOR'] as const) {
      expect(can([role]), role).toBe(true);
    }
  });

  it('refuses every read-only role of the spec', () => {
    for (const role of REPORT_READ_ONLY_ROLES) expect(can([role], own, 7), role).toBe(false);
  });

  it('lets a center annotate its own center only, and never a backup account', () => {
    expect(can(['ROLE_CENTER'], own, 7)).toBe(true);
    expect(can(['ROLE_CENTER_SHARE_ALL'], own, 8)).toBe(false);
    expect(can(['ROLE_CENTER_BACKUP'], own, 7)).toBe(false);
  });

  it('is allowed when one role may (a doctor who is also an auditor)', () => {
    expect(can(['ROLE_AUDITOR', 'ROLE_DOCTOR'])).toBe(true);
  });

  it('never on a deleted study', () => {
    expect(can(['ROLE_DOCTOR'], { centerId: 7, status: 'DELETED' })).toBe(false);
  });
});

describe('canChangeAnnotation', () => {
  it('is the author, or a group admin', () => {
    expect(canChangeAnnotation({ roles: ['ROLE_DOCTOR'], userId: 1, createdByUserId: 1 })).toBe(true);
    expect(canChangeAnnotation({ roles: ['ROLE_DOCTOR'], userId: 1, createdByUserId: 2 })).toBe(false);
    expect(canChangeAnnotation({ roles: ['ROLE_DOCTOR'], userId: 1, createdByUserId: null })).toBe(false);
    expect(canChangeAnnotation({ roles: ['ROLE_ADMIN'], userId: 1, createdByUserId: 2 })).toBe(true);
    expect(canChangeAnnotation({ roles: ['ROLE_GROUP'], userId: 1, createdByUserId: null })).toBe(true);
  });
});
