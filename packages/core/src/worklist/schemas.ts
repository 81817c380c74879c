import { z } from 'zod';
import { REPORT_STATUSES } from './statuses.js';
import { ZPaymentMode, ZStudyPaymentStatus } from '../payments/schemas.js';
import { ZPageResponse, ZSearchTableRequest } from '../common/schemas.js';

const ZReportStatus = z.enum(REPORT_STATUSES);

/**
 * The row fields a list may be filtered by (the search request's `filters` keys, spec-core §3). Text
 * filters match case-insensitively anywhere in the field; `id` only when it is all digits (spec-core
 * §2); `assignedTo`/`auditor` match the user's e-mail, `tags` any tag's text, `reportStudyPart` any
 * study type. Other keys are ignored, so a table may send a filter for every column it shows.
 */
export const STUDY_LIST_FILTER_FIELDS = [
  'id',
  'patientName',
  'patientId',
  'uhid',
  'patientSex',
  'patientAge',
  'studyName',
  'modality',
  'reportStudyPart',
  'radiologyCenter',
  'centerEmail',
  'institutionName',
  'status',
  'history',
  'referringPhysicianName',
  'referringPhysicianEmail',
  'accessionNumber',
  'department',
  'email',
  'mobileNumber',
  'invoiceNumber',
  'assignedTo',
  'auditor',
  'tags',
] as const;
export type TStudyListFilterField = (typeof STUDY_LIST_FILTER_FIELDS)[number];

/** The row fields a list may be sorted by (`orderingCriteria`); anything else is a 400 naming the field. */
export const STUDY_LIST_SORT_FIELDS = [
  'id',
  'createdAt',
  'patientName',
  'patientId',
  'uhid',
  'patientSex',
  'patientAge',
  'studyDateTime',
  'status',
  'urgent',
  'modality',
  'studyName',
  'radiologyCenter',
  'institutionName',
  'referringPhysicianName',
  'accessionNumber',
  'department',
  'email',
  'mobileNumber',
  'invoiceNumber',
  'assignedTo',
  'auditor',
  'signedOffAt',
  'firstUploadCompletedAt',
  'lastUploadCompletedAt',
] as const;
export type TStudyListSortField = (typeof STUDY_LIST_SORT_FIELDS)[number];

/**
 * spec-core §7 Lists: the body of POST /dicom-web/studies/ (the admin and doctor lists): the
 * search-table request plus the tab fields of TTabFilter and contextDoctor.
 */
export const ZStudyListRequest = ZSearchTableRequest.extend({
  contextDoctor: z.string().max(320).nullish(),
  statuses: z.array(ZReportStatus).max(REPORT_STATUSES.length).nullish(),
  showAssigned: z.boolean().nullish(),
  showUnassigned: z.boolean().nullish(),
  showUrgent: z.boolean().nullish(),
  showPending: z.boolean().nullish(),
  showReprintNeeded: z.boolean().nullish(),
  assignedTos: z.array(z.string().max(320)).max(50).nullish(),
}).meta({ id: 'StudyListRequest' });
export type TStudyListRequest = z.infer<typeof ZStudyListRequest>;

/**
 * spec-core §7 Lists: the body of POST /report-status/ (the center, tele and admin patient lists):
 * the search-table request plus statuses and showUrgent.
 */
export const ZReportStatusListRequest = ZSearchTableRequest.extend({
  statuses: z.array(ZReportStatus).max(REPORT_STATUSES.length).nullish(),
  showUrgent: z.boolean().nullish(),
}).meta({ id: 'ReportStatusListRequest' });
export type TReportStatusListRequest = z.infer<typeof ZReportStatusListRequest>;

const ZInstant = z.string().nullable();

/** spec-core §3 tag / reportTags: one tag on a study row. */
export const ZStudyTag = z
  .object({
    id: z.number().int(),
    tag: z.string(),
    globalTag: z.boolean(),
    /** E-mail of the user who added it; '' when that user was deleted. */
    createdBy: z.string(),
    reportStatusId: z.number().int(),
  })
  .meta({ id: 'StudyTag' });
export type TStudyTag = z.infer<typeof ZStudyTag>;

/**
 * spec-core §3 "Study / report-status row" as both list calls answer it. Patient and order fields are
 * the report row's own (copied from DICOM, then edited by the details form), not the archive's.
 * Instants are ISO 8601 strings. Fields marked "ours" are not in the spec's row.
 */
export const ZStudyListRow = z
  .object({
    id: z.number().int(),
    /** The study instance UID. */
    instanceId: z.string(),
    apiVersion: z.number().int(),
    status: ZReportStatus,
    urgent: z.boolean(),
    /** All reports were deleted by a rework (spec-core §4 the reworked alert). */
    reworked: z.boolean(),
    /** Signed off again after the center printed it (Reprint Needed). */
    signedOffAfterPrint: z.boolean(),
    /**
     * Ours: when images last arrived after the report was signed off ('New images after sign-off'),
     * null when none did since the latest sign-off. The report is not changed by them.
     */
    newImagesAfterSignOffAt: ZInstant,
    backedUpAt: ZInstant,
    /** Ours: when the study was marked deleted (status DELETED), else null. */
    deletedAt: ZInstant,
    /** E-mail of the assigned doctor, or null. */
    assignedTo: z.string().nullable(),
    /** Ours: the assigned doctor's display name (identifier), or null. */
    assignedToName: z.string().nullable(),
    /** E-mail of the auditor assigned to review the signed-off report, or null. */
    auditor: z.string().nullable(),
    /** Ours: the auditor's verdict (the audit approve/reject switch), null until given. */
    auditStatus: z.enum(['APPROVED', 'REJECTED']).nullable(),
    /** Ours: e-mail of the doctor holding the report lock (status LOCKED), or null. */
    lockedBy: z.string().nullable(),
    /** Ours: e-mail of the referring-doctor user the study was shared with, or null. */
    referringDoctor: z.string().nullable(),
    patientName: z.string(),
    patientId: z.string(),
    uhid: z.string(),
    patientSex: z.string(),
    patientAge: z.string(),
    studyName: z.string(),
    /** The study's modalities joined with ','. */
    modality: z.string(),
    /** spec-core §3 reportStudyPart: the study types (body parts) of this study, by name. */
    reportStudyPart: z.array(z.string()),
    count: z.object({ series: z.number().int(), images: z.number().int() }),
    referringPhysicianName: z.string(),
    referringPhysicianEmail: z.string().nullable(),
    consultingDoctorEmails: z.array(z.string()),
    /** DICOM accession number (the report row's copy); not in the spec's row, which names no field for it. */
    accessionNumber: z.string(),
    department: z.string().nullable(),
    institutionName: z.string(),
    /**
     * Ours: the study's center (group staff name it to list that center's forwarding PACS). Every
     * list row carries it; optional because the detail answer (ZStudyDetail) does not fill it yet.
     */
    centerId: z.number().int().optional(),
    /** The center's name. */
    radiologyCenter: z.string(),
    centerEmail: z.string(),
    /** The patient's mobile and e-mail. */
    mobileNumber: z.string().nullable(),
    email: z.string().nullable(),
    shareLink: z.string().nullable(),
    /**
     * spec-core §3 paymentStatus and paymentMode (core payments). Optional: the list calls fill them;
     * the detail answer does not yet.
     */
    paymentStatus: ZStudyPaymentStatus.optional(),
    paymentMode: ZPaymentMode.nullable().optional(),
    sharedEmails: z.array(z.string()),
    sharedNumbers: z.array(z.string()),
    dunningLabels: z.array(z.string()),
    invoiceNumber: z.string(),
    history: z.string(),
    splitFromReportStatusId: z.number().int().nullable(),
    /** Ours: another row was split from this one (core's "already split" rule reads it). */
    hasSplitChild: z.boolean(),
    /**
     * spec-core §3 `reports` is not empty: the row has a report (addenda included). Print reads it
     * (core canPrint).
     */
    hasReports: z.boolean(),
    /** Ours: how many history, film and report attachments the row has (the attachment icons). */
    attachmentCount: z.object({
      history: z.number().int(),
      film: z.number().int(),
      report: z.number().int(),
    }),
    /** 'yyyy-MM-dd HH:mm:ss' from the DICOM study date and time, or null without a date. */
    studyDateTime: z.string().nullable(),
    createdAt: z.string(),
    firstUploadCompletedAt: ZInstant,
    lastUploadCompletedAt: ZInstant,
    signedOffAt: ZInstant,
    firstSignedOffAt: ZInstant,
    /** spec-core §3 tag / reportTags, oldest first. */
    tags: z.array(ZStudyTag),
  })
  .meta({ id: 'StudyListRow' });
export type TStudyListRow = z.infer<typeof ZStudyListRow>;

/** spec-core §3 Page response of study rows: the answer of both list calls. */
export const ZStudyListPage = ZPageResponse(ZStudyListRow).meta({ id: 'StudyListPage' });
export type TStudyListPage = z.infer<typeof ZStudyListPage>;
