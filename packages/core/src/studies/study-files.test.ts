import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_MAX_BYTES,
  ZAddReportTagRequest,
  ZSendMessageRequest,
  attachmentContentType,
  attachmentFileProblem,
  buildShareUrl,
  canChangeReportTag,
  canDeleteStudyAttachment,
  canUploadStudyAttachment,
  fileExtension,
  isAllowedAttachmentName,
  sniffAttachment,
} from './study-files.js';

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

describe('allowed attachment types (spec-core §5)', () => {
  it('accepts the spec list and images by extension, case-insensitively', () => {
    for (const name of [
      'a.xlsx',
      'a.XLS',
      'a.doc',
      'a.docx',
      'a.ppt',
      'a.pptx',
      'a.txt',
      'a.pdf',
      'a.JPG',
      'a.png',
    ]) {
      expect(isAllowedAttachmentName(name), name).toBe(true);
    }
    for (const name of ['a.exe', 'a.svg', 'a.html', 'pdf', '.pdf', 'a.pdf.exe', 'a']) {
      expect(isAllowedAttachmentName(name), name).toBe(false);
    }
    expect(fileExtension('C:\\x\\scan.Final.PDF')).toBe('pdf');
    expect(attachmentContentType('x.jpeg')).toBe('image/jpeg');
    expect(attachmentContentType('x.exe')).toBeNull();
  });

  it('sniffs the content against the extension', () => {
    expect(sniffAttachment('a.pdf', text('%PDF-1.7'))).toBe(true);
    expect(sniffAttachment('a.pdf', text('MZ'))).toBe(false);
    expect(sniffAttachment('a.docx', bytes(0x50, 0x4b, 0x03, 0x04))).toBe(true);
    expect(sniffAttachment('a.doc', bytes(0x50, 0x4b, 0x03, 0x04))).toBe(false);
    expect(sniffAttachment('a.xls', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBe(true);
    expect(sniffAttachment('a.jpg', bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(sniffAttachment('a.webp', text('RIFF\0\0\0\0WEBPVP8 '))).toBe(true);
    expect(sniffAttachment('a.txt', text('hello'))).toBe(true);
    expect(sniffAttachment('a.txt', bytes(0x68, 0x00))).toBe(false);
  });

  it('names the problem with a file: type, size cap, empty', () => {
    expect(attachmentFileProblem({ name: 'a.pdf', size: 10 })).toBeNull();
    expect(attachmentFileProblem({ name: 'a.exe', size: 10 })).toMatch(/^File type not allowed: a.exe/);
    expect(attachmentFileProblem({ name: 'a.pdf', size: ATTACHMENT_MAX_BYTES + 1 })).toContain('50 MB');
    expect(attachmentFileProblem({ name: 'a.pdf', size: 0 })).toMatch(/empty/);
  });
});

describe('who adds and deletes attachments (spec-core §6 and our decisions)', () => {
  const row = { status: 'CREATED', centerId: 7 };
  it('history and film: center users, admins, tele-radiology; not doctors or assignors', () => {
    for (const kind of ['HISTORY', 'FILM'] as const) {
      expect(canUploadStudyAttachment({ roles: ['ROLE_CENTER'], row, userCenterId: 7 }, kind)).toBe(true);
      expect(canUploadStudyAttachment({ roles: ['ROLE_ADMIN'], row, userCenterId: 7 }, kind)).toBe(true);
      expect(canUploadStudyAttachment({ roles: ['ROLE_TELE_RADIOLOGY'], row, userCenterId: 7 }, kind)).toBe(
        true,
      );
      expect(canUploadStudyAttachment({ roles: ['ROLE_DOCTOR'], row, userCenterId: 7 }, kind)).toBe(false);
      expect(canUploadStudyAttachment({ roles: ['ROLE_ASSIGNOR'], row, userCenterId: 7 }, kind)).toBe(false);
    }
  });
  it('report attachments: report authors add; center users may also delete', () => {
    expect(canUploadStudyAttachment({ roles: ['ROLE_DOCTOR'], row, userCenterId: 7 }, 'REPORT')).toBe(true);
    expect(canUploadStudyAttachment({ roles: ['ROLE_CENTER'], row, userCenterId: 7 }, 'REPORT')).toBe(false);
    expect(canDeleteStudyAttachment({ roles: ['ROLE_CENTER'], row, userCenterId: 7 }, 'REPORT')).toBe(true);
    expect(canDeleteStudyAttachment({ roles: ['ROLE_VIEWER'], row, userCenterId: 7 }, 'REPORT')).toBe(false);
  });
  it('nothing on a deleted study', () => {
    const deleted = { status: 'DELETED', centerId: 7 };
    expect(
      canUploadStudyAttachment({ roles: ['ROLE_CENTER'], row: deleted, userCenterId: 7 }, 'HISTORY'),
    ).toBe(false);
    expect(
      canDeleteStudyAttachment({ roles: ['ROLE_CENTER'], row: deleted, userCenterId: 7 }, 'HISTORY'),
    ).toBe(false);
  });
});

describe('tags and sharing', () => {
  it('tag text is trimmed and collapsed; empty is refused', () => {
    expect(ZAddReportTagRequest.parse({ reportStatusId: 1, tag: '  a   b ' })).toEqual({
      reportStatusId: 1,
      tag: 'a b',
      globalTag: false,
    });
    expect(ZAddReportTagRequest.safeParse({ reportStatusId: 1, tag: '   ' }).success).toBe(false);
  });
  it('a tag is changed by its creator or an admin', () => {
    expect(canChangeReportTag({ roles: ['ROLE_DOCTOR'], userId: 1, createdByUserId: 1 })).toBe(true);
    expect(canChangeReportTag({ roles: ['ROLE_DOCTOR'], userId: 2, createdByUserId: 1 })).toBe(false);
    expect(canChangeReportTag({ roles: ['ROLE_ADMIN'], userId: 2, createdByUserId: null })).toBe(true);
  });
  it('the send-message number follows the mobile pattern', () => {
    expect(ZSendMessageRequest.safeParse({ number: '9876543210' }).success).toBe(true);
    expect(ZSendMessageRequest.safeParse({ number: '5876543210' }).success).toBe(false);
  });
  it('builds the share URL', () => {
    expect(buildShareUrl('https://r.example/', 'a-b_c')).toBe('https://r.example/share?link=a-b_c');
  });
});
