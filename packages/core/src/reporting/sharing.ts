import { z } from 'zod';
import { MOBILE_PREFIX } from '../common/constants.js';
import { OTP_PATTERN } from '../common/validation.js';
import { canSendToReferringDoctor } from '../worklist/actions.js';
import type { TActorCenter, TRuleInput } from '../worklist/study-row.js';

/**
 * The public share page (issue 7 §5; spec-core §2 "/share?link={shareLink}", a public path) and the
 * delivery of shares: the rules and shapes the server and the page both use.
 */

/** The share page's messages. Ours: the spec shows the page but none of its texts. */
export const SHARE_MESSAGES = {
  linkNotFound: 'This link is not valid',
  linkExpired: 'This link has expired',
  studyDeleted: 'This study has been deleted',
  reportNotReady: 'The report is not ready yet',
  codeRequired: "Enter the code sent to the patient's mobile",
  codeWrong: 'The code is not correct',
  codeGone: 'The code has expired or was used. Please request a new one',
  noMobileForCode:
    'This report is protected by a code sent to the patient, but no mobile number is on record. Please contact the center.',
  secureQrDisabled: 'Secure viewer QR codes are not enabled for this group',
} as const;

/** A share code lives this long (like a sign-in code, ARCHITECTURE "OTP"). */
export const SHARE_OTP_TTL_SECONDS = 300;
/** Wrong tries that kill a code. */
export const SHARE_OTP_MAX_ATTEMPTS = 5;
/** Codes one link may have sent within the window (protects the patient and the SMS budget). */
export const SHARE_OTP_MAX_REQUESTS = 5;
export const SHARE_OTP_REQUEST_WINDOW_SECONDS = 900;
/** How long a verified code opens the link in that browser. */
export const SHARE_ACCESS_HOURS = 12;

/**
 * The patient's mobile as the share page shows it: the country prefix, the last four digits, the
 * rest hidden ('+91 ******1234'). A number shorter than five digits is hidden entirely.
 */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  const shown = digits.length > 4 ? digits.slice(-4) : '';
  return `${MOBILE_PREFIX} ${'*'.repeat(Math.max(digits.length - shown.length, 6))}${shown}`;
}

/**
 * When a share link stops opening: `shareLinkValidityDays` (ADMIN_PREFERENCES) days after it was
 * made; null = never.
 */
export function shareLinkExpiresAt(createdAt: Date, validityDays: number | null): Date | null {
  return validityDays === null ? null : new Date(createdAt.getTime() + validityDays * 86_400_000);
}

export function isShareLinkExpired(createdAt: Date, validityDays: number | null, now: Date): boolean {
  const end = shareLinkExpiresAt(createdAt, validityDays);
  return end !== null && now.getTime() >= end.getTime();
}

/** A share token as share-link.ts makes it (base64url); anything else is 404 before any lookup. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** The link in the path: checked against SHARE_TOKEN_PATTERN by the server, so a bad one is 404 like an unknown one. */
export const ZShareLinkParams = z.object({ link: z.string().max(512) });

export const ZShareSignature = z.object({
  name: z.string(),
  /** GET /api/assets/{id} (public), or null when the doctor has no signature image. */
  imageUrl: z.string().nullable(),
  signedOffAt: z.string(),
});

export const ZShareReport = z.object({
  name: z.string(),
  /** Cleaned HTML, as saved (the server cleans every report on save). */
  content: z.string(),
  isAddendum: z.boolean(),
  doctorName: z.string(),
  signature: ZShareSignature.nullable(),
});
export type TShareReport = z.infer<typeof ZShareReport>;

/** GET /api/share/{link}: the study facts and, once signed off, the report with its addenda. */
export const ZSharePage = z
  .object({
    /** As shown (core formatPersonName), like referringPhysician. */
    patientName: z.string(),
    patientId: z.string(),
    patientSex: z.string(),
    patientAge: z.string(),
    studyName: z.string(),
    modality: z.string(),
    /** DICOM study date as yyyy-MM-dd, or ''. */
    studyDate: z.string(),
    center: z.string(),
    referringPhysician: z.string(),
    /** Signed off: the reports are here and the PDF can be downloaded. */
    isReportReady: z.boolean(),
    reports: z.array(ZShareReport),
    hasImages: z.boolean(),
    /** ISO time the link stops opening, or null. */
    expiresAt: z.string().nullable(),
    /**
     * The group's display time zone (ADMIN_PREFERENCES displayTimeZone): the page is public, with no
     * session to read the group's settings from, and shows its times in this zone (formatDisplayTime).
     */
    displayTimeZone: z.string(),
  })
  .meta({ id: 'SharePage' });
export type TSharePage = z.infer<typeof ZSharePage>;

/** GET /api/share/{link}/series: the images, read-only, in series and instance order. */
export const ZShareSeries = z.object({
  seriesUid: z.string(),
  seriesNumber: z.number().int().nullable(),
  modality: z.string(),
  description: z.string(),
  /** Every frame of every image, in order: what the page scrolls through. */
  frames: z.array(z.object({ sopUid: z.string(), frame: z.number().int().positive() })),
});
export const ZShareSeriesList = z.array(ZShareSeries).meta({ id: 'ShareSeriesList' });
export type TShareSeries = z.infer<typeof ZShareSeries>;

/** The address of one rendered frame of a share link (the page's <img> source). */
export function shareFrameUrl(link: string, seriesUid: string, sopUid: string, frame: number): string {
  const l = encodeURIComponent(link);
  return `/api/share/${l}/series/${encodeURIComponent(seriesUid)}/instances/${encodeURIComponent(sopUid)}/frames/${frame}`;
}

export const ZShareFrameParams = ZShareLinkParams.extend({
  series: z.string().min(1).max(64),
  instance: z.string().min(1).max(64),
  frame: z.coerce.number().int().positive().max(100_000),
});

/** POST /api/share/{link}/code: sends a code to the patient's mobile. */
export const ZShareCodeSent = z
  .object({ mobile: z.string(), expiresInSeconds: z.number().int() })
  .meta({ id: 'ShareCodeSent' });
export type TShareCodeSent = z.infer<typeof ZShareCodeSent>;

/** POST /api/share/{link}/verify. */
export const ZShareVerifyRequest = z.object({
  code: z.string().trim().regex(OTP_PATTERN, 'The code is 6 digits'),
});
export const ZShareVerified = z.object({ verified: z.literal(true) });

/** One message of a row as the outbox holds it (GET /api/report-status/messages/{id}). */
export const ZReportMessage = z.object({
  id: z.number().int(),
  channel: z.enum(['SMS', 'WHATSAPP', 'EMAIL']),
  recipient: z.string(),
  status: z.enum(['PENDING', 'SENT', 'FAILED']),
  /** When it was handed to the provider (ISO). */
  sentAt: z.string(),
  failureReason: z.string().nullable(),
  attachments: z.array(z.string()),
});
export type TReportMessage = z.infer<typeof ZReportMessage>;
export const ZReportMessages = z.array(ZReportMessage).meta({ id: 'ReportMessages' });

/**
 * POST /api/pdf/generate-viewer-qr (spec-core §7): with the group's
 * enableSecureViewerQrCodeGeneration, whoever may share the study (canSendToReferringDoctor) may
 * make its share link by asking for the QR. The QR print dialog is offered on a row that has a link,
 * or where this holds.
 */
export function canGenerateViewerQr(
  input: TRuleInput<
    'status' | 'centerId',
    'radiologistCanSendToReferringDoctor' | 'enableSecureViewerQrCodeGeneration'
  > &
    TActorCenter,
): boolean {
  return input.flags.enableSecureViewerQrCodeGeneration && canSendToReferringDoctor(input);
}

/** POST /api/pdf/generate-viewer-qr (spec-core §7; enableSecureViewerQrCodeGeneration). */
export const ZViewerQrRequest = z.object({ reportStatusId: z.number().int().positive().max(2_147_483_647) });
export const ZViewerQrResponse = z
  .object({ url: z.string(), qrDataUrl: z.string() })
  .meta({ id: 'ViewerQr' });
export type TViewerQrResponse = z.infer<typeof ZViewerQrResponse>;
