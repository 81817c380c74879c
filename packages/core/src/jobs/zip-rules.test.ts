import { describe, expect, it } from 'vitest';
import { defaultPreferences, groupFlags } from '../settings/preferences.js';
import { ZIP_MESSAGES, canDownloadZip, zipDownloadRefusal, zipVariantFor } from './zip-rules.js';

const flags = (over: Partial<ReturnType<typeof groupFlags>> = {}) => ({
  ...groupFlags(defaultPreferences()),
  ...over,
});

describe('canDownloadZip (spec-core §5)', () => {
  it('allows everyone when no setting is on', () => {
    expect(canDownloadZip(['ROLE_CENTER'], flags())).toBe(true);
    expect(canDownloadZip(['ROLE_DOCTOR'], flags())).toBe(true);
    expect(canDownloadZip(['ROLE_ASSIGNOR'], flags())).toBe(true);
  });

  it('refuses centers and tele users with disableZipDownloadingForCenter', () => {
    const f = flags({ disableZipDownloadingForCenter: true });
    expect(canDownloadZip(['ROLE_CENTER'], f)).toBe(false);
    expect(canDownloadZip(['ROLE_TELE_RADIOLOGY'], f)).toBe(false);
    expect(canDownloadZip(['ROLE_DOCTOR'], f)).toBe(true);
  });

  it('refuses referring doctors unless allowed', () => {
    expect(canDownloadZip(['ROLE_REFERRING_DOCTOR'], flags())).toBe(false);
    expect(
      canDownloadZip(['ROLE_REFERRING_DOCTOR'], flags({ allowReferringDoctorToDownloadZip: true })),
    ).toBe(true);
  });

  it('refuses only a sole doctor with disableDownloadZipForDoctor', () => {
    const f = flags({ disableDownloadZipForDoctor: true });
    expect(canDownloadZip(['ROLE_DOCTOR'], f)).toBe(false);
    expect(canDownloadZip(['ROLE_DOCTOR', 'ROLE_ADMIN'], f)).toBe(true);
  });

  it('refuses tele-medicine-customised assignors and centers', () => {
    const f = flags({ teleMedSpecificCustomization: true });
    expect(canDownloadZip(['ROLE_ASSIGNOR'], f)).toBe(false);
    expect(canDownloadZip(['ROLE_CENTER'], f)).toBe(false);
    expect(canDownloadZip(['ROLE_DOCTOR'], f)).toBe(true);
  });
});

describe('zipDownloadRefusal (spec-core §5)', () => {
  const now = new Date('2026-06-30T12:00:00Z');
  const base = {
    apiVersion: 2,
    lastUploadCompletedAt: new Date('2026-06-01T00:00:00Z'),
    createdAt: new Date('2026-06-01T00:00:00Z'),
    durationOfBackupInMonth: null,
    now,
  };

  it('refuses a study of apiVersion above 1 that is not fully uploaded', () => {
    expect(zipDownloadRefusal({ ...base, lastUploadCompletedAt: null })).toBe(
      'Study is not uploaded yet so cannot be downladed. Please try after some time',
    );
    expect(zipDownloadRefusal({ ...base, apiVersion: 1, lastUploadCompletedAt: null })).toBeNull();
  });

  it('counts the backup duration in days, 30 a month', () => {
    const created = new Date(now.getTime() - 65 * 86_400_000);
    expect(zipDownloadRefusal({ ...base, createdAt: created, durationOfBackupInMonth: 2 })).toBe(
      'Backup duration of study (2 months) has passed by 5 days',
    );
    expect(zipDownloadRefusal({ ...base, createdAt: created, durationOfBackupInMonth: 3 })).toBeNull();
    expect(zipDownloadRefusal(base)).toBeNull();
    expect(ZIP_MESSAGES.backupPassed(1, 2)).toBe('Backup duration of study (1 months) has passed by 2 days');
  });
});

describe('zipVariantFor (spec-core §3 Job, §6)', () => {
  it('gives the original unless a policy or the request asks for anonymisation', () => {
    expect(zipVariantFor(['ROLE_DOCTOR'], flags(), null)).toBe('NONE');
    expect(zipVariantFor(['ROLE_ADMIN'], flags(), 'ALL')).toBe('ANONYMIZED');
    expect(zipVariantFor(['ROLE_ADMIN'], flags(), 'SOLE_DOCTOR_ONLY')).toBe('NONE');
    expect(zipVariantFor(['ROLE_DOCTOR'], flags(), 'SOLE_DOCTOR_ONLY')).toBe('ANONYMIZED');
  });

  it("treats the group's policy as a floor the request cannot lower", () => {
    expect(zipVariantFor(['ROLE_CENTER'], flags({ anonymizeZipType: 'ALL' }), 'NONE')).toBe('ANONYMIZED');
    expect(zipVariantFor(['ROLE_DOCTOR'], flags({ anonymizeZipType: 'SOLE_DOCTOR_ONLY' }), 'NONE')).toBe(
      'ANONYMIZED',
    );
    expect(zipVariantFor(['ROLE_DOCTOR'], flags({ anonymizePatientForDoctor: true }), 'NONE')).toBe(
      'ANONYMIZED',
    );
    expect(zipVariantFor(['ROLE_CENTER'], flags({ anonymizePatientForDoctor: true }), 'NONE')).toBe('NONE');
  });
});
