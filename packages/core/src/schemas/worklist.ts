import { z } from 'zod';
import { REPORT_STATUSES } from '../worklist/statuses.js';
import { ZPageResponse, ZSearchTableRequest } from './common.js';

const ZReportStatus = z.enum(REPORT_STATUSES);

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

/**
 * spec-core §3 "Study / report-status row": the fields the list calls answer today. Fields whose
 * data does not exist yet are answered empty (assignedTo null, tags []).
 */
export const ZStudyListRow = z
  .object({
    id: z.number().int(),
    /** The study instance UID. */
    instanceId: z.string(),
    apiVersion: z.number().int(),
    status: ZReportStatus,
    urgent: z.boolean(),
    /** E-mail of the assigned doctor; null until assignment exists. */
    assignedTo: z.string().nullable(),
    patientName: z.string(),
    patientId: z.string(),
    patientSex: z.string(),
    patientAge: z.string(),
    studyName: z.string(),
    /** The study's modalities joined with ','. */
    modality: z.string(),
    count: z.object({ series: z.number().int(), images: z.number().int() }),
    /** 'yyyy-MM-dd HH:mm:ss' from the DICOM study date and time, or null without a date. */
    studyDateTime: z.string().nullable(),
    institutionName: z.string(),
    referringPhysicianName: z.string(),
    /** DICOM accession number; not in the spec's row, which names no field for it. */
    accessionNumber: z.string(),
    /** The center's name. */
    radiologyCenter: z.string(),
    centerEmail: z.string(),
    uhid: z.string(),
    history: z.string(),
    splitFromReportStatusId: z.number().int().nullable(),
    createdAt: z.string(),
    firstUploadCompletedAt: z.string().nullable(),
    lastUploadCompletedAt: z.string().nullable(),
    tags: z.array(
      z.object({
        id: z.number().int(),
        tag: z.string(),
        globalTag: z.boolean(),
        createdBy: z.string(),
        reportStatusId: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'StudyListRow' });
export type TStudyListRow = z.infer<typeof ZStudyListRow>;

/** spec-core §3 Page response of study rows: the answer of both list calls. */
export const ZStudyListPage = ZPageResponse(ZStudyListRow).meta({ id: 'StudyListPage' });
export type TStudyListPage = z.infer<typeof ZStudyListPage>;
