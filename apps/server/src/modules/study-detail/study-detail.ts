import {
  type TStudyDetail,
  type TStudyHistory,
  type TStudyTimeline,
  readsReportWork,
  customerMustPayFirst,
  reportsForReader,
} from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import type { TStudyDbRow } from '../studies/study-rows.js';
import { loadVisibleStudyRow } from '../studies/visible-row.js';
import { attachmentsForReader, listAttachments } from '../study-attachments/attachments.repository.js';
import { toStudyDateTime } from '../worklist/list-studies.js';
import { tagsOfReports } from '../report-tags/tag-visibility.js';
import { listReports } from './list-reports.js';
import { listStudyEvents } from './study-timeline.js';

const tagViewerOf = (auth: TAuth) => ({ userId: auth.user.id, groupId: auth.user.groupId });

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toStudyDetail(
  row: TStudyDbRow,
  tags: TStudyDetail['tags'],
  reports: TStudyDetail['reports'],
): TStudyDetail {
  const r = row.report;
  return {
    id: r.id,
    instanceId: row.instanceId,
    apiVersion: r.apiVersion,
    status: r.status,
    urgent: r.urgent,
    reworked: r.reworked,
    signedOffAfterPrint: r.signedOffAfterPrint,
    // As the lists (worklist study-list.repository.ts): only images since the latest sign-off.
    newImagesAfterSignOffAt:
      r.newImagesAfterSignOffAt && r.signedOffAt && r.newImagesAfterSignOffAt > r.signedOffAt
        ? iso(r.newImagesAfterSignOffAt)
        : null,
    backedUpAt: iso(r.backedUpAt),
    deletedAt: iso(r.deletedAt),
    assignedTo: row.assignedTo,
    assignedToName: row.assignedToName,
    assignedAt: iso(r.assignedAt),
    auditor: row.auditor,
    auditStatus: r.auditStatus,
    lockedBy: row.lockedBy,
    referringDoctor: row.referringDoctor,
    patientName: r.patientName,
    patientId: r.patientId,
    uhid: r.uhid,
    patientSex: r.patientSex,
    patientAge: r.patientAge,
    // The row's study name, else what DICOM called the study (as the lists show it).
    studyName: r.studyName || row.studyDescription,
    modality: row.modalities.join(','),
    reportStudyPart: r.studyParts,
    count: { series: row.seriesCount, images: row.instanceCount },
    referringPhysicianName: r.referringPhysicianName,
    referringPhysicianEmail: r.referringPhysicianEmail,
    consultingDoctorEmails: r.consultingDoctorEmails,
    accessionNumber: r.accessionNumber,
    department: r.department,
    institutionName: row.institutionName,
    centerId: r.centerId,
    radiologyCenter: row.radiologyCenter,
    centerEmail: row.centerEmail,
    mobileNumber: r.mobileNumber,
    email: r.email,
    shareLink: r.shareLink,
    sharedEmails: r.sharedEmails,
    sharedNumbers: r.sharedNumbers,
    dunningLabels: r.dunningLabels,
    invoiceNumber: r.invoiceNumber,
    history: r.history,
    splitFromReportStatusId: r.splitFromReportStatusId,
    hasSplitChild: row.hasSplitChild,
    hasReports: reports.length > 0,
    reports,
    attachmentCount: row.attachments,
    studyDateTime: toStudyDateTime(row.studyDate, row.studyTime),
    createdAt: r.createdAt.toISOString(),
    firstUploadCompletedAt: iso(r.firstUploadCompletedAt),
    lastUploadCompletedAt: iso(r.lastUploadCompletedAt),
    signedOffAt: iso(r.signedOffAt),
    firstSignedOffAt: iso(r.firstSignedOffAt),
    printedAt: iso(r.printedAt),
    tags,
  };
}

/**
 * spec-core §3 `reports` (name, format, content): the row's reports, main report first, as the caller
 * reads them (core reportsForReader: before sign-off only the writers).
 */
async function reportsOf(db: DbOrTx, auth: TAuth, row: TStudyDbRow): Promise<TStudyDetail['reports']> {
  const id = row.report.id;
  // A patient with this study's payment pending gets the row without its report
  // (customer-pages/DECISIONS.md); the report itself answers 402.
  if (customerMustPayFirst(auth.roles, row.report.paymentStatus)) return [];
  const reports = (await listReports(db, [id], { withVersions: false })).get(id) ?? [];
  return reportsForReader(auth.roles, row.report.status, reports).map(({ name, format, content }) => ({
    name,
    format,
    content,
  }));
}

/** GET /report-status/id/{id}: the study row (spec-core §3). */
export async function getStudyDetail(db: DbOrTx, auth: TAuth, id: number): Promise<TStudyDetail> {
  const row = await loadVisibleStudyRow(db, auth, id);
  const [tags, reports] = await Promise.all([
    tagsOfReports(db, tagViewerOf(auth), [id]),
    reportsOf(db, auth, row),
  ]);
  return toStudyDetail(row, tags, reports);
}

/**
 * GET /history/{id}: the row with its attachment lists and its timeline. The read-only roles (core
 * readsReportWork) get no timeline (it names the staff who did what) and only the attachments
 * readableAttachmentKinds gives them.
 */
export async function getStudyHistory(db: DbOrTx, auth: TAuth, id: number): Promise<TStudyHistory> {
  const row = await loadVisibleStudyRow(db, auth, id);
  const seesWork = readsReportWork(auth.roles);
  const [tags, attachments, timeline, reports] = await Promise.all([
    tagsOfReports(db, tagViewerOf(auth), [id]),
    listAttachments(db, id),
    seesWork ? listStudyEvents(db, id) : [],
    reportsOf(db, auth, row),
  ]);
  return {
    ...toStudyDetail(row, tags, reports),
    ...attachmentsForReader(auth.roles, row.report.status, attachments),
    timeline,
  };
}

/**
 * GET /report-status/timeline/{id}: the timeline alone (the report notification timeline dialog).
 * The route refuses the read-only roles (core readsReportWork) first.
 */
export async function getStudyTimeline(db: DbOrTx, auth: TAuth, id: number): Promise<TStudyTimeline> {
  await loadVisibleStudyRow(db, auth, id);
  return listStudyEvents(db, id);
}
