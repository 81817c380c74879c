import { describe, expect, it } from 'vitest';
import { canAddReportAudio, canDeleteReportAudio, sniffAudio } from './audio.js';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffAudio', () => {
  it('knows each audio type by its first bytes', () => {
    expect(sniffAudio(bytes([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBe('audio/webm');
    expect(sniffAudio(bytes('OggS', [0, 2, 0, 0]))).toBe('audio/ogg');
    expect(sniffAudio(bytes([0, 0, 0, 0x20], 'ftypM4A '))).toBe('audio/mp4');
    expect(sniffAudio(bytes('ID3', [4, 0, 0]))).toBe('audio/mpeg');
    expect(sniffAudio(bytes([0xff, 0xfb, 0x90, 0x64]))).toBe('audio/mpeg');
    expect(sniffAudio(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('audio/wav');
  });
  it('refuses other files, AAC ADTS and too few bytes', () => {
    expect(sniffAudio(bytes('%PDF-1.7'))).toBeNull();
    expect(sniffAudio(bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'))).toBeNull();
    expect(sniffAudio(bytes([0xff, 0xf1, 0x50, 0x80]))).toBeNull();
    expect(sniffAudio(bytes('Og'))).toBeNull();
  });
});

describe('audio note rules', () => {
  const row = { status: 'REPORTED' as const, centerId: 7 };
  it('doctors, typists, verifiers and the row’s center users add; not on a deleted study', () => {
    for (const role of ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER'] as const) {
      expect(canAddReportAudio({ roles: [role], row, userCenterId: null })).toBe(true);
    }
    expect(canAddReportAudio({ roles: ['ROLE_CENTER'], row, userCenterId: 7 })).toBe(true);
    expect(canAddReportAudio({ roles: ['ROLE_CENTER'], row, userCenterId: 8 })).toBe(false);
    expect(canAddReportAudio({ roles: ['ROLE_REFERRING_DOCTOR'], row, userCenterId: null })).toBe(false);
    expect(canAddReportAudio({ roles: ['ROLE_LABS_RECEPTIONIST'], row, userCenterId: 7 })).toBe(false);
    expect(
      canAddReportAudio({ roles: ['ROLE_DOCTOR'], row: { ...row, status: 'DELETED' }, userCenterId: null }),
    ).toBe(false);
  });
  it('the uploader or a group admin deletes', () => {
    const doctor = { roles: ['ROLE_DOCTOR'] as const, row, userCenterId: null };
    expect(canDeleteReportAudio({ ...doctor, roles: [...doctor.roles], isUploader: true })).toBe(true);
    expect(canDeleteReportAudio({ ...doctor, roles: [...doctor.roles], isUploader: false })).toBe(false);
    expect(canDeleteReportAudio({ roles: ['ROLE_GROUP'], row, userCenterId: null, isUploader: false })).toBe(
      true,
    );
    expect(
      canDeleteReportAudio({
        roles: ['ROLE_ADMIN'],
        row: { ...row, status: 'DELETED' },
        userCenterId: null,
        isUploader: true,
      }),
    ).toBe(false);
  });
});
