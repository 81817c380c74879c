import { describe, expect, it } from 'vitest';
import { canGenerateViewerQr, isShareLinkExpired, maskMobile, shareLinkExpiresAt } from './sharing.js';

describe('maskMobile', () => {
  it('shows the prefix and the last four digits', () => {
    expect(maskMobile('9876501234')).toBe('+91 ******1234');
    expect(maskMobile('98765 01234')).toBe('+91 ******1234');
  });
  it('hides a number too short to show part of', () => {
    expect(maskMobile('1234')).toBe('+91 ******');
  });
});

describe('share link expiry', () => {
  const made = new Date('2026-01-01T00:00:00Z');
  it('never expires without shareLinkValidityDays', () => {
    expect(shareLinkExpiresAt(made, null)).toBeNull();
    expect(isShareLinkExpired(made, null, new Date('2036-01-01T00:00:00Z'))).toBe(false);
  });
  it('expires the given days after it was made', () => {
    expect(shareLinkExpiresAt(made, 7)?.toISOString()).toBe('2026-01-08T00:00:00.000Z');
    expect(isShareLinkExpired(made, 7, new Date('2026-01-07T23:59:59Z'))).toBe(false);
    expect(isShareLinkExpired(made, 7, new Date('2026-01-08T00:00:00Z'))).toBe(true);
  });
});

describe('canGenerateViewerQr', () => {
  const input = (enabled: boolean, roles: Parameters<typeof canGenerateViewerQr>[0]['roles']) => ({
    roles,
    flags: { enableSecureViewerQrCodeGeneration: enabled, radiologistCanSendToReferringDoctor: false },
    row: { status: 'SIGNED_OFF' as const, centerId: 1 },
    userCenterId: 1,
  });
  it('needs the switch and a role that may share the study', () => {
    expect(canGenerateViewerQr(input(true, ['ROLE_CENTER']))).toBe(true);
    expect(canGenerateViewerQr(input(false, ['ROLE_CENTER']))).toBe(false);
    expect(canGenerateViewerQr(input(true, ['ROLE_ASSIGNOR']))).toBe(false);
    expect(canGenerateViewerQr(input(true, ['ROLE_DOCTOR']))).toBe(false);
  });
});
