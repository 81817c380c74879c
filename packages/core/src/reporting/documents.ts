import { z } from 'zod';
import type { TGroupFlags } from '../settings/preferences.js';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import { canEditReport, canPrint, isDownloadAndPrintHidden } from '../worklist/actions.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { isReportReadOnly } from './rules.js';
import { REPORT_CONTENT_MAX, REPORT_NAME_MAX } from './schemas.js';

/*
 * Report documents (issue 7 §4, spec-core §7 POST /pdf/download, download-images, word; §9 download
 * options; §5 the Download and Print and Word hides). The study list's and the editor's download
 * menu shows what these rules allow, and the server answers 403/409 with the same rules.
 * Decisions: apps/server/src/modules/report-documents/DECISIONS.md.
 */

export const REPORT_DOCUMENT_PATHS = {
  pdf: '/api/pdf/download',
  pdfWithImages: '/api/pdf/download-images',
  word: '/api/pdf/word',
} as const;

export type TReportDocumentPath = (typeof REPORT_DOCUMENT_PATHS)[keyof typeof REPORT_DOCUMENT_PATHS];

export interface TReportDownloadOption {
  key: 'PRINT' | 'PDF' | 'PDF_WITH_HEADER' | 'PDF_WITH_IMAGES' | 'PDF_WITH_HEADER_AND_IMAGES' | 'WORD';
  /** spec-core §9, word for word. */
  label: string;
  path: TReportDocumentPath;
  /** With the center's header and footer images; null = the group's downloadReportWithLetterhead. */
  showTemplate: boolean | null;
  withImages: boolean;
  /** A print: records printed_at and clears Reprint Needed. */
  print: boolean;
  format: 'PDF' | 'WORD';
}

/**
 * spec-core §9 "Download options: Print, PDF, PDF with header, PDF with images, PDF with header and
 * images, Word", in that order. Print and Word follow the group's letterhead switch (the spec gives
 * them no header variant).
 */
export const REPORT_DOWNLOAD_OPTIONS: readonly TReportDownloadOption[] = [
  {
    key: 'PRINT',
    label: 'Print',
    path: REPORT_DOCUMENT_PATHS.pdf,
    showTemplate: null,
    withImages: false,
    print: true,
    format: 'PDF',
  },
  {
    key: 'PDF',
    label: 'PDF',
    path: REPORT_DOCUMENT_PATHS.pdf,
    showTemplate: false,
    withImages: false,
    print: false,
    format: 'PDF',
  },
  {
    key: 'PDF_WITH_HEADER',
    label: 'PDF with header',
    path: REPORT_DOCUMENT_PATHS.pdf,
    showTemplate: true,
    withImages: false,
    print: false,
    format: 'PDF',
  },
  {
    key: 'PDF_WITH_IMAGES',
    label: 'PDF with images',
    path: REPORT_DOCUMENT_PATHS.pdfWithImages,
    showTemplate: false,
    withImages: true,
    print: false,
    format: 'PDF',
  },
  {
    key: 'PDF_WITH_HEADER_AND_IMAGES',
    label: 'PDF with header and images',
    path: REPORT_DOCUMENT_PATHS.pdfWithImages,
    showTemplate: true,
    withImages: true,
    print: false,
    format: 'PDF',
  },
  {
    key: 'WORD',
    label: 'Word',
    path: REPORT_DOCUMENT_PATHS.word,
    showTemplate: null,
    withImages: false,
    print: false,
    format: 'WORD',
  },
];

/** spec-core §7: the body of POST /pdf/download, /pdf/download-images and /pdf/word. */
export const ZReportDocumentRequest = z.object({
  /** The study instance UID; must be the row's (400 naming `uid` otherwise). */
  uid: z.string().trim().min(1).max(128),
  reportStatusId: z.coerce.number().int().positive(),
  /** The document's title and file name part; default the report's own name. */
  reportName: z.string().trim().max(REPORT_NAME_MAX).optional(),
  /** The editor's unsaved text, for this document only (writers who may edit the report). */
  customHtml: z.string().max(REPORT_CONTENT_MAX).nullish(),
  /** With the letterhead (header/footer images); default the group's downloadReportWithLetterhead. */
  showTemplate: z.boolean().optional(),
  /** A QR of the share page at the end; default the group's appendQrCodeToReport. */
  appendQr: z.boolean().optional(),
  /** This is a print: records printed_at and clears Reprint Needed. */
  print: z.boolean().optional(),
});
export type TReportDocumentRequest = z.infer<typeof ZReportDocumentRequest>;

/**
 * issue 21 §7: what 'with header' and 'with images' add to this row's documents, read before the
 * menu offers them (GET /api/pdf/extras/{reportStatusId}, whoever sees the row).
 */
export const ZReportDocumentExtras = z
  .object({
    /** A letterhead (header or footer image) is set: the center's PDF layout, else the group's. */
    letterhead: z.boolean(),
    /** The row's key images (marked in the viewer). */
    keyImages: z.number().int().min(0),
  })
  .meta({ id: 'ReportDocumentExtras' });
export type TReportDocumentExtras = z.infer<typeof ZReportDocumentExtras>;

/** What a document asked for but could not hold; the server names them in this response header. */
export const REPORT_DOCUMENT_LEFT_OUT = ['LETTERHEAD', 'KEY_IMAGES'] as const;
export type TReportDocumentLeftOut = (typeof REPORT_DOCUMENT_LEFT_OUT)[number];
export const REPORT_LEFT_OUT_HEADER = 'x-report-left-out';

/** Why an option gives less than its name says, and where to set what is missing (ours). */
export const REPORT_LEFT_OUT_MESSAGES: Record<TReportDocumentLeftOut, string> = {
  LETTERHEAD:
    'No letterhead is set: the center or a group admin adds header and footer images in Settings → PDF Margins and Images',
  KEY_IMAGES: 'This study has no key images: mark them in the viewer with the Key image button',
};

/**
 * What an option asks for that this row's documents cannot hold (issue 21 §7: 'PDF with header'
 * gave the plain PDF without a word). `showTemplate: null` (Print, Word) follows the group switch:
 * only an option that names the header or images is judged here.
 */
export function missingDocumentExtras(
  option: Pick<TReportDownloadOption, 'showTemplate' | 'withImages'>,
  extras: TReportDocumentExtras,
): TReportDocumentLeftOut[] {
  const missing: TReportDocumentLeftOut[] = [];
  if (option.showTemplate === true && !extras.letterhead) missing.push('LETTERHEAD');
  if (option.withImages && extras.keyImages === 0) missing.push('KEY_IMAGES');
  return missing;
}

/** Ours (the spec gives none). */
export const REPORT_DOCUMENT_MESSAGES = {
  noReport: 'The study has no report yet',
  notSignedOff:
    'The report is not signed off yet: it can be printed or downloaded once the doctor signs it off',
  printNeedsSignOff: 'Only a signed-off report can be printed',
  hidden: 'Downloading and printing reports is disabled for you',
  wordHidden: 'Word download is not available here',
  uidMismatch: 'uid is not the study of this report',
  customHtmlNotAllowed: 'You cannot change the text of this report',
  preliminary: 'PRELIMINARY — NOT SIGNED OFF',
} as const;

/**
 * The roles that write reports (doctor, typist, verifier). They may download a preliminary
 * (unsigned) document of a row they can see, to proof-read it; everyone else only a signed-off one.
 */
export function isReportWriter(roles: readonly TRole[]): boolean {
  return !isReportReadOnly(roles) && hasRole(roles, 'ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER');
}

export interface TDocumentRuleInput {
  roles: readonly TRole[];
  flags: Pick<TGroupFlags, 'disableDownloadZipForDoctor'>;
  teleUser: boolean;
  row: { status: TReportStatus; hasReports: boolean };
  /** The menu is in the report editor (spec-core §5: Word is hidden for centers while editing). */
  isEditing?: boolean;
}

/** Why a document of this row is refused, or null: 403 (who) or 409 (the report's state). */
export interface TDocumentRefusal {
  kind: 'FORBIDDEN' | 'CONFLICT';
  message: string;
}

/**
 * Whether the caller gets a document of the row (spec-core §4 "Print is enabled only when the study
 * has reports and is SIGNED_OFF or DELETED", §5 the Download and Print hide). Report writers may also
 * take an unsigned one, marked preliminary; a print always needs canPrint.
 */
export function checkReportDocument(
  input: TDocumentRuleInput & { format: 'PDF' | 'WORD'; print: boolean },
): TDocumentRefusal | null {
  if (isDownloadAndPrintHidden(input)) return { kind: 'FORBIDDEN', message: REPORT_DOCUMENT_MESSAGES.hidden };
  if (input.format === 'WORD' && isWordDownloadHidden(input)) {
    return { kind: 'FORBIDDEN', message: REPORT_DOCUMENT_MESSAGES.wordHidden };
  }
  if (!input.row.hasReports) return { kind: 'CONFLICT', message: REPORT_DOCUMENT_MESSAGES.noReport };
  if (canPrint(input)) return null;
  if (input.print) return { kind: 'CONFLICT', message: REPORT_DOCUMENT_MESSAGES.printNeedsSignOff };
  return isReportWriter(input.roles)
    ? null
    : { kind: 'CONFLICT', message: REPORT_DOCUMENT_MESSAGES.notSignedOff };
}

/**
 * spec-core §5 "Word download is hidden for centers when editing or when Word download is
 * disabled". No setting in the spec's lists disables Word download, so only the editing case
 * applies (DECISIONS.md).
 */
export function isWordDownloadHidden({
  roles,
  isEditing,
}: Pick<TDocumentRuleInput, 'roles' | 'isEditing'>): boolean {
  return isCenterUser(roles) && isEditing === true;
}

/** One option as the menu draws it: shown, and whether it may be chosen. */
export interface TOfferedDownloadOption {
  option: TReportDownloadOption;
  enabled: boolean;
}

/**
 * The download menu of a row (spec-core §9 options in order): nothing when Download and Print is
 * hidden; Word left out where it is hidden; each option enabled when checkReportDocument allows it.
 */
export function offeredDownloadOptions(input: TDocumentRuleInput): TOfferedDownloadOption[] {
  if (isDownloadAndPrintHidden(input)) return [];
  return REPORT_DOWNLOAD_OPTIONS.filter((o) => o.format !== 'WORD' || !isWordDownloadHidden(input)).map(
    (option) => ({
      option,
      enabled: checkReportDocument({ ...input, format: option.format, print: option.print }) === null,
    }),
  );
}

/** Whether the caller may send their own text (customHtml) for the document: who may edit the report. */
export function canSendCustomHtml(input: {
  roles: readonly TRole[];
  flags: Pick<TGroupFlags, 'disableReportEditingForCenter'>;
  row: { status: TReportStatus };
}): boolean {
  return canEditReport(input);
}

/**
 * The document's file name (without extension): patient name and study name, letters, digits,
 * spaces and '-' kept, at most 120 characters; 'report' when nothing is left.
 */
export function reportDocumentBaseName(patientName: string, studyName: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFC')
      .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const joined = [clean(patientName), clean(studyName)].filter(Boolean).join(' - ');
  return joined.slice(0, 120).trim() || 'report';
}
