import { z } from 'zod';
import { isReportReadOnly } from '../reporting/rules.js';
import { type TRole, hasRole } from '../identity/roles.js';
import { canManageGroupSettings } from '../identity/permissions.js';
import { type TSettingEntry, canReadLabPreferences, settingEntriesOf } from './setting-entries.js';

/**
 * Settings images, the signature, the report page layout (PDF margins) and the lab invoice prefix
 * (spec-lab §3 settings objects, §5 Settings, §7 Settings; the issue 6 contract). Texts marked
 * "spec" are the spec's rule; the spec gives no words for these, so every text is ours.
 */
export const SETTING_ASSET_MESSAGES = {
  imageRequired: 'Please choose an image.',
  imageType: 'Please choose a PNG or JPEG image.',
  /** spec-lab §5: header and footer images png only. */
  imagePngOnly: 'Header and footer images must be PNG images.',
  imageTooLarge: 'The image is larger than 2 MB. Please choose a smaller image.',
  assetTypeInvalid:
    'Unknown image type. Use CENTER_IMAGE, BILLING_LOGO, REPORT_HEADER, REPORT_FOOTER, SIGNATURE, REPORT_IMAGE or BRAND_LOGO.',
  /** spec-lab §5 Signature: footer text required. */
  signatureNameRequired: 'Signature footer text is required.',
  signatureNameTooLong: 'Signature footer text can be at most 200 characters.',
  signatureDataInvalid: 'The signature details could not be read. Please try again.',
  /** spec-lab §5 PDF margins: top and bottom required. */
  marginTopRequired: 'Please enter the top margin.',
  marginBottomRequired: 'Please enter the bottom margin.',
  marginInvalid: 'Margins must be numbers in centimetres.',
  marginNegative: 'Margins cannot be negative.',
  marginTooLarge: 'Margins can be at most 10 cm.',
  /** spec-lab §5 PDF margins: step 0.01. */
  marginStep: 'Margins can have at most two decimals (steps of 0.01 cm).',
  /** spec-lab §5 lab prefix dialog: all four required. */
  prefixRequired: 'Please enter the invoice prefix.',
  sequenceRequired: 'Please enter the invoice sequence.',
  uhidPrefixRequired: 'Please enter the UHID prefix.',
  uhidSequenceRequired: 'Please enter the UHID sequence.',
  prefixInvalid: 'Prefixes can have up to 20 letters, digits, "-" or "/".',
  sequenceInvalid: 'Sequences must be whole numbers from 1 to 1000000000000.',
} as const;
const M = SETTING_ASSET_MESSAGES;

// ---- Images: POST /setting/upload-assets/, signature, header/footer ----

/** What an uploaded settings image is for (contract: POST /api/setting/upload-assets/ `assetType`). */
export const SETTING_ASSET_TYPES = [
  'CENTER_IMAGE',
  'BILLING_LOGO',
  'REPORT_HEADER',
  'REPORT_FOOTER',
  'SIGNATURE',
  /** issue 7 §1 key images from the viewer: a snapshot placed in a report (`<img src="/api/assets/{id}">`). */
  'REPORT_IMAGE',
  /** issue 29 §8: a group's own logo (sign-in, top bar, share page); group admins only. */
  'BRAND_LOGO',
] as const;
export type TSettingAssetType = (typeof SETTING_ASSET_TYPES)[number];
export const ZSettingAssetType = z.enum(SETTING_ASSET_TYPES, { error: M.assetTypeInvalid });

/** The settings entry whose dialog uploads each image type: a role without it may not upload it. */
export const SETTING_ASSET_ENTRY: Record<
  Exclude<TSettingAssetType, 'REPORT_IMAGE' | 'BRAND_LOGO'>,
  TSettingEntry
> = {
  CENTER_IMAGE: 'CONTACT_INFO',
  BILLING_LOGO: 'BILLING_DETAILS',
  REPORT_HEADER: 'PDF_MARGINS',
  REPORT_FOOTER: 'PDF_MARGINS',
  SIGNATURE: 'SIGNATURE',
};

/** spec-lab §5: report header and footer images are png only; the other images png or jpeg. */
export const PNG_ONLY_ASSET_TYPES: readonly TSettingAssetType[] = ['REPORT_HEADER', 'REPORT_FOOTER'];

/** At most 2 MiB per settings image (413 above). */
export const SETTING_ASSET_MAX_BYTES = 2 * 1024 * 1024;

export const SETTING_IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export type TSettingImageContentType = (typeof SETTING_IMAGE_CONTENT_TYPES)[number];

/** How many leading bytes `detectSettingImageType` reads. */
export const SETTING_IMAGE_SNIFF_BYTES = 8;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

/**
 * The image type by its magic number (png 89 50 4E 47 0D 0A 1A 0A, jpeg FF D8 FF); null for
 * anything else. The content type a client claims is never trusted.
 */
export function detectSettingImageType(head: Uint8Array): TSettingImageContentType | null {
  const startsWith = (signature: number[]) =>
    head.length >= signature.length && signature.every((byte, i) => head[i] === byte);
  if (startsWith(PNG_SIGNATURE)) return 'image/png';
  if (startsWith(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

export type TSettingImageProblem = { kind: 'TOO_LARGE' | 'TYPE'; message: string };

/**
 * Why a picked image cannot be used, or null: too large (413) or not png/jpeg by its bytes (415;
 * png only for report header and footer). The browser checks before uploading with the file's first
 * bytes; the server checks the bytes it received.
 */
export function settingImageProblem(
  file: { size: number; head: Uint8Array },
  opts: { pngOnly?: boolean } = {},
): TSettingImageProblem | null {
  if (file.size > SETTING_ASSET_MAX_BYTES) return { kind: 'TOO_LARGE', message: M.imageTooLarge };
  const type = detectSettingImageType(file.head);
  if (opts.pngOnly) return type === 'image/png' ? null : { kind: 'TYPE', message: M.imagePngOnly };
  return type ? null : { kind: 'TYPE', message: M.imageType };
}

/**
 * Who may upload an image of the type: the roles with its settings entry (a doctor a center image
 * for contact info, a center a header, …).
 */
export function canUploadSettingAsset(roles: readonly TRole[], assetType: TSettingAssetType): boolean {
  if (assetType === 'REPORT_IMAGE') return isReportWriterRole(roles);
  if (assetType === 'BRAND_LOGO') return canManageGroupSettings(roles);
  return settingEntriesOf(roles).includes(SETTING_ASSET_ENTRY[assetType]);
}

/** Whether the roles may use the upload call at all (contract: at least one settings entry). */
export function hasAnySettingEntry(roles: readonly TRole[]): boolean {
  return settingEntriesOf(roles).length > 0;
}

/**
 * A role that writes report text (doctor, typist, verifier; not a read-only one): it places key
 * images from the viewer in a report (issue 7 §1), even without a settings entry (a typist).
 */
export function isReportWriterRole(roles: readonly TRole[]): boolean {
  if (isReportReadOnly(roles)) return false;
  return hasRole(roles, 'ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER');
}

/** Whether the roles may use the upload call at all: a settings entry, or a report writer's key image. */
export function canUseAssetUpload(roles: readonly TRole[]): boolean {
  return hasAnySettingEntry(roles) || isReportWriterRole(roles);
}

export const ZSettingAssetUploadResponse = z.object({
  publicS3ImageUrl: z.string(),
  assetType: ZSettingAssetType,
});
export type TSettingAssetUploadResponse = z.infer<typeof ZSettingAssetUploadResponse>;

// ---- Signature (spec-lab §3 signature: name and image; §5 footer text required) ----

export const SIGNATURE_NAME_MAX_LENGTH = 200;

/** The `data` part of POST /metadata/upload/: `{ "name": "…" }`, the footer text under the signature. */
export const ZSignatureData = z.object({
  name: z
    .string({ error: M.signatureNameRequired })
    .trim()
    .min(1, M.signatureNameRequired)
    .max(SIGNATURE_NAME_MAX_LENGTH, M.signatureNameTooLong),
});
export type TSignatureData = z.infer<typeof ZSignatureData>;

export function canEditSignature(roles: readonly TRole[]): boolean {
  return settingEntriesOf(roles).includes('SIGNATURE');
}

/** GET /metadata/sign: the footer text ('' when none) and the image as a data URL (null when none). */
export const ZSignatureResponse = z.object({ name: z.string(), signature: z.string().nullable() });
export type TSignatureResponse = z.infer<typeof ZSignatureResponse>;

// ---- PDF margins and header/footer images (spec-lab §3, §5, §9) ----

/** spec-lab §9 default PDF margins in cm. */
export const PDF_MARGIN_DEFAULTS_CM = { top: 4, bottom: 3, left: 3, right: 3 } as const;
/** Ours: a margin wider than 10 cm leaves no page. */
export const PDF_MARGIN_MAX_CM = 10;

/** Blank text and null count as missing, so a cleared field gives the "required" message. */
const blankAsMissing = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** A number typed in a text field, a multipart field or JSON; other text becomes NaN (invalid). */
const toNumber = (v: unknown) => {
  const value = blankAsMissing(v);
  if (typeof value !== 'string') return value;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
};

/** At most two decimals, allowing for binary fractions (0.1 + 0.2). */
const hasStep001 = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

function marginCm(requiredMessage: string) {
  return z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? requiredMessage : M.marginInvalid) })
      .min(0, M.marginNegative)
      .max(PDF_MARGIN_MAX_CM, M.marginTooLarge)
      .refine(hasStep001, M.marginStep),
  );
}

/**
 * The margin fields of POST /center-setting/update/ (multipart names). Top and bottom are required
 * (spec-lab §5); left and right left out keep their stored (or default) values.
 */
export const ZPdfMarginsForm = z.object({
  pdf_margin_top: marginCm(M.marginTopRequired),
  pdf_margin_bottom: marginCm(M.marginBottomRequired),
  pdf_margin_left: marginCm(M.marginInvalid).optional(),
  pdf_margin_right: marginCm(M.marginInvalid).optional(),
});
export type TPdfMarginsForm = z.infer<typeof ZPdfMarginsForm>;

/** GET /center-setting/ and the answer of its update: margins in cm, image addresses or null. */
export const ZCenterSettingResponse = z.object({
  pdfMarginTop: z.number(),
  pdfMarginBottom: z.number(),
  pdfMarginLeft: z.number(),
  pdfMarginRight: z.number(),
  headerImageUrl: z.string().nullable(),
  footerImageUrl: z.string().nullable(),
});
export type TCenterSettingResponse = z.infer<typeof ZCenterSettingResponse>;

export function canEditReportLayout(roles: readonly TRole[]): boolean {
  return settingEntriesOf(roles).includes('PDF_MARGINS');
}

// ---- Lab invoice and UHID prefix (spec-lab §3 lab prefix, §5 all four required) ----

export const LAB_PREFIX_MAX_LENGTH = 20;
/** Ours: what can sit in an invoice number and a UHID without escaping. */
export const LAB_PREFIX_PATTERN = /^[A-Za-z0-9/-]+$/;
export const LAB_SEQUENCE_MAX = 1_000_000_000_000;

function labPrefixText(requiredMessage: string) {
  return z.preprocess(
    blankAsMissing,
    z
      .string({ error: (issue) => (issue.input === undefined ? requiredMessage : M.prefixInvalid) })
      .trim()
      .max(LAB_PREFIX_MAX_LENGTH, M.prefixInvalid)
      .regex(LAB_PREFIX_PATTERN, M.prefixInvalid),
  );
}

function labSequence(requiredMessage: string) {
  return z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? requiredMessage : M.sequenceInvalid) })
      .int(M.sequenceInvalid)
      .min(1, M.sequenceInvalid)
      .max(LAB_SEQUENCE_MAX, M.sequenceInvalid),
  );
}

/** POST /api/lab/add-prefix: the next invoice number and the next UHID are prefix + sequence. */
export const ZLabPrefix = z.object({
  prefix: labPrefixText(M.prefixRequired),
  sequence: labSequence(M.sequenceRequired),
  uhidPrefix: labPrefixText(M.uhidPrefixRequired),
  uhidSequence: labSequence(M.uhidSequenceRequired),
});
export type TLabPrefix = z.infer<typeof ZLabPrefix>;

/** GET /api/lab/get-prefix: empty prefixes and sequences 1 when nothing is stored. */
export const ZLabPrefixResponse = z.object({
  prefix: z.string(),
  sequence: z.number().int(),
  uhidPrefix: z.string(),
  uhidSequence: z.number().int(),
});
export type TLabPrefixResponse = z.infer<typeof ZLabPrefixResponse>;

export const LAB_PREFIX_DEFAULTS: TLabPrefixResponse = {
  prefix: '',
  sequence: 1,
  uhidPrefix: '',
  uhidSequence: 1,
};

/** GET /api/lab/get-prefix: the lab roles and the center users (who make bills). */
export function canReadLabPrefix(roles: readonly TRole[]): boolean {
  return canReadLabPreferences(roles);
}

/** POST /api/lab/add-prefix: the invoice number and prefix entry (spec-lab §6: labs supervisor). */
export function canEditLabPrefix(roles: readonly TRole[]): boolean {
  return settingEntriesOf(roles).includes('INVOICE_PREFIX');
}
