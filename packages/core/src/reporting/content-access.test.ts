import { describe, expect, it } from 'vitest';
import {
  isPublishedReport,
  readableAttachmentKinds,
  readsReportWork,
  readsUnsignedReports,
  reportsForReader,
} from './content-access.js';

const signature = { name: 'Dr A', imageAssetId: null, signedOffAt: '2026-01-01T00:00:00.000Z' };
const main = { isAddendum: false, awaitingVerification: false, signature, versions: [{ version: 1 }] };
const addendum = { ...main, isAddendum: true };
const unsigned = { ...main, signature: null };
const waiting = { ...main, awaitingVerification: true };

describe('readsReportWork', () => {
  it('the read-only roles of spec-core §5 do not; every other role, and a mix with one, does', () => {
    for (const role of [
      'ROLE_CUSTOMER',
      'ROLE_VIEWER',
      'ROLE_REFERRING_DOCTOR',
      'ROLE_AUDITOR',
      'ROLE_LABS_SUPERVISOR',
      'ROLE_LABS_RECEPTIONIST',
    ] as const) {
      expect(readsReportWork([role]), role).toBe(false);
    }
    for (const role of [
      'ROLE_DOCTOR',
      'ROLE_TYPIST',
      'ROLE_VERIFIER',
      'ROLE_CENTER',
      'ROLE_ADMIN',
    ] as const) {
      expect(readsReportWork([role]), role).toBe(true);
    }
    expect(readsReportWork(['ROLE_CUSTOMER', 'ROLE_DOCTOR'])).toBe(true);
  });
});

describe('readsUnsignedReports', () => {
  it('the writers (doctor, typist, verifier) only; not centers, admins or assignors', () => {
    for (const role of ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER'] as const) {
      expect(readsUnsignedReports([role]), role).toBe(true);
    }
    for (const role of ['ROLE_CENTER', 'ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_CUSTOMER'] as const) {
      expect(readsUnsignedReports([role]), role).toBe(false);
    }
  });
});

describe('reportsForReader', () => {
  it('writers read every report with its versions, whatever the status', () => {
    expect(reportsForReader(['ROLE_DOCTOR'], 'REPORTED', [unsigned])).toEqual([unsigned]);
  });

  it('a center reads only what is signed off, without versions', () => {
    expect(reportsForReader(['ROLE_CENTER'], 'REPORTED', [unsigned])).toEqual([]);
    expect(reportsForReader(['ROLE_CENTER'], 'SIGNED_OFF', [main])).toEqual([{ ...main, versions: [] }]);
  });

  it('a read-only reader gets nothing before the row is SIGNED_OFF', () => {
    expect(reportsForReader(['ROLE_CUSTOMER'], 'REPORTED', [main, addendum])).toEqual([]);
    expect(reportsForReader(['ROLE_CUSTOMER'], 'LOCKED', [main])).toEqual([]);
  });

  it('on SIGNED_OFF: the signed reports and addenda without versions; an unsigned or waiting one left out', () => {
    expect(reportsForReader(['ROLE_VIEWER'], 'SIGNED_OFF', [main, addendum, unsigned, waiting])).toEqual([
      { ...main, versions: [] },
      { ...addendum, versions: [] },
    ]);
  });

  it('isPublishedReport: a signed report on a SIGNED_OFF row only', () => {
    expect(isPublishedReport('SIGNED_OFF', main)).toBe(true);
    expect(isPublishedReport('REPORTED', main)).toBe(false);
    expect(isPublishedReport('SIGNED_OFF', waiting)).toBe(false);
  });
});

describe('readableAttachmentKinds', () => {
  it('staff: all three; read-only: films, and report attachments once signed off', () => {
    expect(readableAttachmentKinds(['ROLE_CENTER'], 'CREATED')).toEqual(['HISTORY', 'FILM', 'REPORT']);
    expect(readableAttachmentKinds(['ROLE_REFERRING_DOCTOR'], 'REPORTED')).toEqual(['FILM']);
    expect(readableAttachmentKinds(['ROLE_REFERRING_DOCTOR'], 'SIGNED_OFF')).toEqual(['FILM', 'REPORT']);
  });
});
