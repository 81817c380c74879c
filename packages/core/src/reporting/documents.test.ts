import { describe, expect, it } from 'vitest';
import { createTestFlags } from '../worklist/test-builders.js';
import {
  REPORT_DOCUMENT_MESSAGES as M,
  REPORT_DOWNLOAD_OPTIONS,
  ZReportDocumentRequest,
  checkReportDocument,
  offeredDownloadOptions,
  reportDocumentBaseName,
} from './documents.js';

const flags = createTestFlags();
const signedOff = { status: 'SIGNED_OFF' as const, hasReports: true };
const reported = { status: 'REPORTED' as const, hasReports: true };

describe('REPORT_DOWNLOAD_OPTIONS', () => {
  it('are the six options of spec-core §9, in order, each with its call', () => {
    expect(REPORT_DOWNLOAD_OPTIONS.map((o) => o.label)).toEqual([
      'Print',
      'PDF',
      'PDF with header',
      'PDF with images',
      'PDF with header and images',
      'Word',
    ]);
    expect(REPORT_DOWNLOAD_OPTIONS.map((o) => [o.path, o.showTemplate, o.withImages, o.print])).toEqual([
      ['/api/pdf/download', null, false, true],
      ['/api/pdf/download', false, false, false],
      ['/api/pdf/download', true, false, false],
      ['/api/pdf/download-images', false, true, false],
      ['/api/pdf/download-images', true, true, false],
      ['/api/pdf/word', null, false, false],
    ]);
  });
});

describe('checkReportDocument', () => {
  const input = { flags, teleUser: false, format: 'PDF' as const, print: false };
  it('gives signed-off reports to whoever sees the row, unsigned ones to report writers only', () => {
    expect(checkReportDocument({ ...input, roles: ['ROLE_CENTER'], row: signedOff })).toBeNull();
    expect(
      checkReportDocument({
        ...input,
        roles: ['ROLE_REFERRING_DOCTOR'],
        row: { ...signedOff, status: 'DELETED' },
      }),
    ).toBeNull();
    expect(checkReportDocument({ ...input, roles: ['ROLE_CENTER'], row: reported })).toEqual({
      kind: 'CONFLICT',
      message: M.notSignedOff,
    });
    expect(checkReportDocument({ ...input, roles: ['ROLE_TYPIST'], row: reported })).toBeNull();
    expect(checkReportDocument({ ...input, roles: ['ROLE_DOCTOR'], row: reported, print: true })).toEqual({
      kind: 'CONFLICT',
      message: M.printNeedsSignOff,
    });
    expect(
      checkReportDocument({ ...input, roles: ['ROLE_DOCTOR'], row: { status: 'LOCKED', hasReports: false } }),
    ).toEqual({ kind: 'CONFLICT', message: M.noReport });
  });

  it('refuses doctors whose Download and Print is hidden (spec-core §5) with 403', () => {
    const hidden = { kind: 'FORBIDDEN', message: M.hidden };
    expect(checkReportDocument({ ...input, roles: ['ROLE_DOCTOR'], row: signedOff, teleUser: true })).toEqual(
      hidden,
    );
    expect(
      checkReportDocument({
        ...input,
        roles: ['ROLE_DOCTOR'],
        row: signedOff,
        flags: createTestFlags({ disableDownloadZipForDoctor: true }),
      }),
    ).toEqual(hidden);
  });
});

describe('offeredDownloadOptions', () => {
  it('enables everything on a signed-off report, Print alone stays off for a writer on an unsigned one', () => {
    const center = offeredDownloadOptions({ roles: ['ROLE_CENTER'], flags, teleUser: false, row: signedOff });
    expect(center.every((o) => o.enabled)).toBe(true);
    const doctor = offeredDownloadOptions({ roles: ['ROLE_DOCTOR'], flags, teleUser: false, row: reported });
    expect(doctor.filter((o) => !o.enabled).map((o) => o.option.key)).toEqual(['PRINT']);
  });

  it('hides Word from centers in the editor and everything from hidden doctors', () => {
    const editing = offeredDownloadOptions({
      roles: ['ROLE_CENTER'],
      flags,
      teleUser: false,
      row: signedOff,
      isEditing: true,
    });
    expect(editing.map((o) => o.option.key)).not.toContain('WORD');
    expect(offeredDownloadOptions({ roles: ['ROLE_DOCTOR'], flags, teleUser: true, row: signedOff })).toEqual(
      [],
    );
  });
});

describe('the request and the file name', () => {
  it('needs uid and reportStatusId', () => {
    expect(ZReportDocumentRequest.safeParse({ reportStatusId: 1 }).success).toBe(false);
    expect(ZReportDocumentRequest.parse({ uid: ' 1.2 ', reportStatusId: '5' })).toEqual({
      uid: '1.2',
      reportStatusId: 5,
    });
  });

  it('keeps letters of any script, drops the rest', () => {
    expect(reportDocumentBaseName('DOE^JANE', 'CT/Head')).toBe('DOE JANE - CT Head');
    expect(reportDocumentBaseName('Иванов', '')).toBe('Иванов');
    expect(reportDocumentBaseName('../', '"')).toBe('report');
  });
});
