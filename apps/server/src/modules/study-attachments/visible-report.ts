import type { DbOrTx } from '../../db/client.js';
import { reportStatuses } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../dicomweb-retrieve/visible-report.js';

/** The report row the attachment, tag and sharing calls read before any change (404 when not visible). */
export const loadVisibleReport = (db: DbOrTx, auth: TAuth, reportStatusId: number) =>
  loadVisibleReportRow(db, auth, reportStatusId, {
    id: reportStatuses.id,
    studyId: reportStatuses.studyId,
    groupId: reportStatuses.groupId,
    centerId: reportStatuses.centerId,
    status: reportStatuses.status,
    patientName: reportStatuses.patientName,
    studyName: reportStatuses.studyName,
    shareLink: reportStatuses.shareLink,
    sharedEmails: reportStatuses.sharedEmails,
    sharedNumbers: reportStatuses.sharedNumbers,
  });
export type TVisibleReport = Awaited<ReturnType<typeof loadVisibleReport>>;
