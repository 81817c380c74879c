import {
  REPORT_DOWNLOAD_OPTIONS,
  ZCenterPatients,
  ZCorrectMobileResponse,
  ZCustomerReports,
  ZReportMessages,
  ZShareResponse,
  type TCustomerReport,
} from '@radflow/core';
import { apiRequest } from '../../api/client';
import { fetchReportDocument, saveFile } from '../report-documents/report-documents.api';

/*
 * The patient's page and the center customer's patient page (server module customer-pages; its
 * DECISIONS.md). Failures show through the API client's snackbar like every other screen's.
 */

export const customerReportsQueryKey = ['customer-pages', 'reports'] as const;
export const centerPatientsQueryKey = (search: string) => ['customer-pages', 'patients', search] as const;
export const patientMessagesQueryKey = (id: number) => ['customer-pages', 'messages', id] as const;

export function fetchCustomerReports(signal?: AbortSignal) {
  return apiRequest('/api/customer-report/reports', { schema: ZCustomerReports, signal });
}

/** The plain signed PDF as the group prints it (its letterhead switch): the existing document call. */
const PDF_OPTION = REPORT_DOWNLOAD_OPTIONS.find((o) => o.key === 'PDF')!;

export async function downloadCustomerReport(report: TCustomerReport): Promise<void> {
  const { blob, fileName } = await fetchReportDocument(
    { ...PDF_OPTION, showTemplate: null },
    {
      id: report.reportStatusId,
      instanceId: report.studyInstanceUid,
      patientName: report.patientName,
      studyName: report.studyName,
    },
  );
  saveFile(blob, fileName);
}

/**
 * /viewer/:studyInstanceUids/:id (spec-core §2 route table): a patient's link opens the light
 * viewer (no `d=1`); the report list carries no api version, so the viewer puts `v` in once the
 * study's context says it (core `correctedViewerSearch`).
 */
export const customerViewerPath = (report: { studyInstanceUid: string; reportStatusId: number }) =>
  `/viewer/${encodeURIComponent(report.studyInstanceUid)}/${report.reportStatusId}`;

export function fetchCenterPatients(search: string, signal?: AbortSignal) {
  const query = search ? `?search=${encodeURIComponent(search)}` : '';
  return apiRequest(`/api/manage-patient/patients${query}`, { schema: ZCenterPatients, signal });
}

export function sendReportToPatient(reportStatusId: number) {
  return apiRequest(`/api/manage-patient/send/${reportStatusId}`, {
    method: 'POST',
    schema: ZShareResponse,
  });
}

export function fetchPatientMessages(reportStatusId: number, signal?: AbortSignal) {
  return apiRequest(`/api/manage-patient/messages/${reportStatusId}`, { schema: ZReportMessages, signal });
}

export function correctPatientMobile(
  reportStatusId: number,
  body: { mobileNumber: string; previousMobileNumber: string | null },
) {
  return apiRequest(`/api/manage-patient/mobile/${reportStatusId}`, {
    json: body,
    schema: ZCorrectMobileResponse,
  });
}
