import { z } from 'zod';
import { DEPARTMENT_OPTIONS } from '../common/constants.js';
import { EMAIL_PATTERN } from '../common/validation.js';
import { REPORT_STATUSES } from './statuses.js';
import { ZStudyAttachmentLists } from '../studies/study-files.js';
import { ZStudyListRow } from './schemas.js';

/**
 * The study actions of spec-core §7 "Study actions" (issue 4 §2): request bodies, path parameters
 * and answers, shared by the server (validation, OpenAPI) and the web (dialogs). The spec does not
 * show the result payloads (§4 "The result payloads of these calls are not shown"): every single-row
 * action answers the row as GET /report-status/id/{id} would after the change.
 */

const ZReportStatus = z.enum(REPORT_STATUSES);

/** The numeric study (report-status row) id of a path such as /report-status/urgent/{id}. */
export const ZStudyIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export type TStudyIdParams = z.infer<typeof ZStudyIdParams>;

const ZStudyId = z.number().int().positive().max(2_147_483_647);
const ZEmail = z.string().trim().toLowerCase().max(320).regex(EMAIL_PATTERN, 'must be an e-mail address');
/** An e-mail, or empty/null meaning "nobody" (unassign). */
const ZOptionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || EMAIL_PATTERN.test(v), 'must be an e-mail address');

/**
 * GET /api/report-status/id/{id}: the study row of spec-core §3, the same shape as a list row
 * (ZStudyListRow) plus the fields only the detail needs. `reports` holds the row's reports (name,
 * format 'HTML', content; main report first, then addenda): GET /api/report/{id} has their versions.
 */
export const ZStudyDetail = ZStudyListRow.extend({
  /** Ours: when the study was assigned to `assignedTo`. */
  assignedAt: z.string().nullable(),
  /** Ours: when the center last printed the report. */
  printedAt: z.string().nullable(),
  reports: z.array(z.object({ name: z.string(), format: z.string(), content: z.string() })),
}).meta({ id: 'StudyDetail' });
export type TStudyDetail = z.infer<typeof ZStudyDetail>;

/** One timeline row (spec-core §2 study history view, report notification timeline): who, what, when, from → to. */
export const ZStudyEvent = z
  .object({
    id: z.number().int(),
    reportStatusId: z.number().int(),
    /**
     * A TStudyEventType (core study-events). Left a string on the wire: a row written by another
     * version may hold a name this one does not know, and the timeline shows it as its words.
     */
    eventType: z.string(),
    /** The acting user's e-mail and name; null when no user acted (then `actorLabel`). */
    actorEmail: z.string().nullable(),
    actorName: z.string().nullable(),
    actorLabel: z.string().nullable(),
    fromStatus: ZReportStatus.nullable(),
    toStatus: ZReportStatus.nullable(),
    /** Event specific facts, e.g. { assignedTo } or { changed: ['patientName'] }. */
    detail: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'StudyEvent' });
export type TStudyEvent = z.infer<typeof ZStudyEvent>;

/** GET /api/report-status/timeline/{id}: the row's events, oldest first. */
export const ZStudyTimeline = z.array(ZStudyEvent).meta({ id: 'StudyTimeline' });
export type TStudyTimeline = z.infer<typeof ZStudyTimeline>;

/**
 * GET /api/history/{id} (spec-core §7: "details with attachments (also apiVersion,
 * lastUploadCompletedAt)"): the row, its three attachment lists and its timeline.
 */
export const ZStudyHistory = ZStudyDetail.extend({
  ...ZStudyAttachmentLists.shape,
  timeline: z.array(ZStudyEvent),
}).meta({ id: 'StudyHistory' });
export type TStudyHistory = z.infer<typeof ZStudyHistory>;

/** spec-core §5 Edit details form: field limits. */
export const STUDY_DETAILS_LIMITS = {
  patientAge: 10,
  uhid: 20,
  accessionNumber: 40,
  patientName: 64,
  patientId: 64,
  studyName: 64,
  referringPhysicianName: 64,
  history: 10_000,
} as const;

/** spec-core §5 Edit details form: sex options. */
export const STUDY_DETAILS_SEXES = ['M', 'F'] as const;

const text = (max: number) => z.string().trim().max(max).default('');

/**
 * POST /api/report-status/update-details/{id}: the Edit details form (spec-core §5). This schema
 * checks shapes only (lengths, sex, patterns of non-empty values); which fields are required depends
 * on the user, the group and the row, and is `checkStudyDetailsForm` (core worklist/study-details.ts),
 * which the browser form and the server both run. Length messages name the field.
 */
export const ZUpdateStudyDetailsRequest = z
  .object({
    patientName: text(STUDY_DETAILS_LIMITS.patientName),
    patientAge: z
      .string()
      .trim()
      .max(
        STUDY_DETAILS_LIMITS.patientAge,
        `patientAge must be at most ${STUDY_DETAILS_LIMITS.patientAge} characters`,
      )
      .default(''),
    patientId: text(STUDY_DETAILS_LIMITS.patientId),
    /** 'M' or 'F'; empty only where the field is not required. */
    patientSex: z.union([z.enum(STUDY_DETAILS_SEXES), z.literal('')]).default(''),
    uhid: z
      .string()
      .trim()
      .max(STUDY_DETAILS_LIMITS.uhid, `uhid must be at most ${STUDY_DETAILS_LIMITS.uhid} characters`)
      .default(''),
    accessionNumber: z
      .string()
      .trim()
      .max(
        STUDY_DETAILS_LIMITS.accessionNumber,
        `accessionNumber must be at most ${STUDY_DETAILS_LIMITS.accessionNumber} characters`,
      )
      .default(''),
    studyName: text(STUDY_DETAILS_LIMITS.studyName),
    referringPhysicianName: text(STUDY_DETAILS_LIMITS.referringPhysicianName),
    history: text(STUDY_DETAILS_LIMITS.history),
    /** The patient's mobile: 10 digits starting 6-9 unless patientNumberNotAvailable. */
    mobileNumber: z.string().trim().max(20).default(''),
    /** The form's 'Patient Number not available' tick. */
    patientNumberNotAvailable: z.boolean().default(false),
    /** The patient's e-mail (optional). */
    email: z.string().trim().toLowerCase().max(320).default(''),
    department: z.enum(DEPARTMENT_OPTIONS).nullish(),
    /**
     * The study types (names from GET /user/study-type). Absent: unchanged. Required (here or
     * already on the row) when billing or tele-radiology applies: 'Please select study type'.
     */
    reportParts: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
    /** The referring doctor (a ROLE_REFERRING_DOCTOR user of the group) by e-mail; empty: none. */
    referringDoctorEmail: ZOptionalEmail,
    referringPhysicianEmail: ZOptionalEmail,
    consultingDoctorEmails: z.array(ZEmail).max(20).default([]),
    /** The form's 'Referring doctor not available' tick (sharing details before sending). */
    referringDoctorNotAvailable: z.boolean().default(false),
  })
  .meta({ id: 'UpdateStudyDetailsRequest' });
/** What the form sends (defaults may be left out). */
export type TUpdateStudyDetailsInput = z.input<typeof ZUpdateStudyDetailsRequest>;
/** What the server works with after parsing. */
export type TUpdateStudyDetailsRequest = z.infer<typeof ZUpdateStudyDetailsRequest>;

/** POST /api/tele-pricing/add-study-part: set the study types of a row. */
export const ZAddStudyPartRequest = z
  .object({
    reportStatusId: ZStudyId,
    reportParts: z.array(z.string().trim().min(1).max(200)).min(1, 'Please select study type').max(50),
  })
  .meta({ id: 'AddStudyPartRequest' });
export type TAddStudyPartRequest = z.infer<typeof ZAddStudyPartRequest>;

/**
 * POST /api/report-status/assign: `assignedTo` is an active ROLE_DOCTOR user of the caller's group,
 * by e-mail; empty or null unassigns.
 */
export const ZAssignStudyRequest = z
  .object({ reportId: ZStudyId, assignedTo: ZOptionalEmail })
  .meta({ id: 'AssignStudyRequest' });
export type TAssignStudyRequest = z.input<typeof ZAssignStudyRequest>;

/** POST /api/report-status/assign-multi (ROLE_ASSIGNOR only): all rows or none. */
export const ZAssignMultiRequest = z
  .object({ reportId: z.array(ZStudyId).min(1).max(200), assignedTo: ZOptionalEmail })
  .meta({ id: 'AssignMultiRequest' });
export type TAssignMultiRequest = z.input<typeof ZAssignMultiRequest>;

/** The answer of assign-multi: the rows as they are now, in the order asked. */
export const ZAssignMultiResponse = z
  .object({ reportIds: z.array(z.number().int()), assignedTo: z.string().nullable() })
  .meta({ id: 'AssignMultiResponse' });
export type TAssignMultiResponse = z.infer<typeof ZAssignMultiResponse>;

/**
 * POST /api/report-status/auditor-assign: `auditorEmail` is an active ROLE_AUDITOR user of the
 * caller's group; empty or null removes the auditor.
 */
export const ZAuditorAssignRequest = z
  .object({ reportStatusId: ZStudyId, auditorEmail: ZOptionalEmail })
  .meta({ id: 'AuditorAssignRequest' });
export type TAuditorAssignRequest = z.input<typeof ZAuditorAssignRequest>;

/** The audit approve/reject switch of the audit columns (spec-core §2, §4 "Audit approval"). */
export const STUDY_AUDIT_STATUSES = ['APPROVED', 'REJECTED'] as const;
export type TStudyAuditStatus = (typeof STUDY_AUDIT_STATUSES)[number];

/** POST /api/report-status/audit-status/{id}: by the row's assigned auditor. */
export const ZStudyAuditStatusRequest = z
  .object({ status: z.enum(STUDY_AUDIT_STATUSES) })
  .meta({ id: 'StudyAuditStatusRequest' });
export type TStudyAuditStatusRequest = z.infer<typeof ZStudyAuditStatusRequest>;
