import { z } from 'zod';
import { EMAIL_PATTERN } from '../common/validation.js';
import { ZStudyDetail } from '../worklist/study-actions-schemas.js';
import { REPORTING_MESSAGES as M } from './messages.js';

/**
 * The reporting calls (issue 7 §1): save, sign off, read with versions, addendum, templates. The spec
 * shows none of them; their shapes follow the issue's `POST /api/report/save/{reportStatusId}` with
 * `{ name, content, signOff }` (content is HTML) and `GET /api/report/{reportStatusId}`.
 */

/** issue 7: report HTML is at most 500 000 characters (before cleaning). */
export const REPORT_CONTENT_MAX = 500_000;
export const REPORT_NAME_MAX = 200;
export const TEMPLATE_NAME_MAX = 200;
/** Tags of one template (modalities, body parts): enough for any real template. */
export const TEMPLATE_TAGS_MAX = 50;

export const REPORT_VERSION_KINDS = ['SAVE', 'SIGN_OFF', 'ADDENDUM'] as const;
export type TReportVersionKind = (typeof REPORT_VERSION_KINDS)[number];

/** Template gender tag (issue 7 §1 "tags for … gender"); null = any. */
export const TEMPLATE_GENDERS = ['M', 'F', 'O'] as const;
export type TTemplateGender = (typeof TEMPLATE_GENDERS)[number];

const ZReportHtml = z.string().max(REPORT_CONTENT_MAX, M.reportTooLong);
const ZDoctorEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(EMAIL_PATTERN, 'must be an e-mail address');

/** A saved version number the writer started from, or null; required (no default) on a save. */
const ZBaseVersion = z
  .number({ error: M.baseVersionRequired })
  .int(M.baseVersionRequired)
  .min(1, M.baseVersionRequired)
  .nullable();

export const ZReportingRowParams = z.object({
  reportStatusId: z.coerce.number().int().positive().max(2_147_483_647),
});

/** POST /api/report/lock/{reportStatusId}: a typist names the doctor they type for. */
const ZReportLockBody = z.object({ doctorEmail: ZDoctorEmail.optional() });
/** The body may be left out (a doctor opening a study sends nothing). */
export const ZReportLockRequest = ZReportLockBody.nullish();
export type TReportLockRequest = z.infer<typeof ZReportLockBody>;

/** POST /api/report/save/{reportStatusId}. */
export const ZReportSaveRequest = z.object({
  name: z.string().trim().min(1, M.reportNameRequired).max(REPORT_NAME_MAX),
  content: ZReportHtml,
  signOff: z.boolean().default(false),
  /** A typist: the doctor they type for (spec-core §6 the typist gate). Ignored for doctors. */
  doctorEmail: ZDoctorEmail.optional(),
  /**
   * issue 21 §7: the saved version of the main report the text started from (null: none was saved).
   * Required: a save from an older version is refused (409), so two tabs never overwrite each other.
   */
  baseVersion: ZBaseVersion,
});
export type TReportSaveRequest = z.infer<typeof ZReportSaveRequest>;

/** POST /api/report/addendum/{reportStatusId}. */
export const ZReportAddendumRequest = z.object({
  name: z.string().trim().min(1).max(REPORT_NAME_MAX).default('Addendum'),
  content: ZReportHtml,
});
export type TReportAddendumRequest = z.infer<typeof ZReportAddendumRequest>;

/** The study row (as GET /report-status/id/{id}) and the alert to show, if any. */
export const ZReportSaveResponse = ZStudyDetail.extend({
  /** The spec's re-sign-off alert when a printed report was signed off again; else null. */
  alert: z.string().nullable(),
  /** The version this write stored (the main report's; an addendum's own): the next save's baseVersion. */
  savedVersion: z.number().int(),
}).meta({ id: 'ReportSaveResponse' });
export type TReportSaveResponse = z.infer<typeof ZReportSaveResponse>;

export const ZReportVersion = z.object({
  version: z.number().int(),
  kind: z.enum(REPORT_VERSION_KINDS),
  name: z.string(),
  content: z.string(),
  savedBy: z.string().nullable(),
  savedByName: z.string().nullable(),
  savedAt: z.string(),
});
export type TReportVersion = z.infer<typeof ZReportVersion>;

export const ZReportSignature = z.object({
  name: z.string(),
  /** The signature image (GET /api/assets/{id}), or null when the doctor has none. */
  imageAssetId: z.string().nullable(),
  signedOffAt: z.string(),
});

export const ZReport = z.object({
  id: z.number().int(),
  name: z.string(),
  format: z.literal('HTML'),
  content: z.string(),
  doctor: z.string(),
  doctorName: z.string(),
  typedBy: z.string(),
  isAddendum: z.boolean(),
  awaitingVerification: z.boolean(),
  verifiedBy: z.string().nullable(),
  signedOffBy: z.string().nullable(),
  signature: ZReportSignature.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Every saved version, oldest first. */
  versions: z.array(ZReportVersion),
});
export type TReport = z.infer<typeof ZReport>;

/** GET /api/report/{reportStatusId}: the main report first, then the addenda, each with its versions. */
export const ZReportsResponse = z
  .object({ reportStatusId: z.number().int(), reports: z.array(ZReport) })
  .meta({ id: 'Reports' });
export type TReportsResponse = z.infer<typeof ZReportsResponse>;

const ZTag = z.string().trim().min(1).max(64);

/** POST /api/report-template/ and PUT /api/report-template/{id}. */
export const ZReportTemplateRequest = z.object({
  name: z.string().trim().min(1, M.templateNameRequired).max(TEMPLATE_NAME_MAX),
  content: ZReportHtml,
  modalities: z.array(ZTag.toUpperCase()).max(TEMPLATE_TAGS_MAX).default([]),
  bodyParts: z.array(ZTag).max(TEMPLATE_TAGS_MAX).default([]),
  gender: z.enum(TEMPLATE_GENDERS).nullable().default(null),
});
export type TReportTemplateRequest = z.infer<typeof ZReportTemplateRequest>;

export const ZReportTemplate = z
  .object({
    id: z.number().int(),
    name: z.string(),
    content: z.string(),
    modalities: z.array(z.string()),
    bodyParts: z.array(z.string()),
    gender: z.enum(TEMPLATE_GENDERS).nullable(),
    owner: z.string(),
    isOwn: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ReportTemplate' });
export type TReportTemplate = z.infer<typeof ZReportTemplate>;

/** GET /api/report-template/?modality=&bodyPart=&gender= (each optional; empty = any). */
export const ZReportTemplateQuery = z.object({
  modality: z.string().trim().max(64).optional(),
  bodyPart: z.string().trim().max(64).optional(),
  gender: z.string().trim().max(8).optional(),
});
export type TReportTemplateQuery = z.infer<typeof ZReportTemplateQuery>;

export const ZReportTemplateIdParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});
