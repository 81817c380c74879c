import { type TStudyListPage, type TStudyListRow, toPageResponse } from '@radflow/core';

let counter = 0;

/** A study row as the list calls answer it; unique id per call. */
export function buildStudyRow(overrides: Partial<TStudyListRow> = {}): TStudyListRow {
  counter += 1;
  return {
    id: 1000 + counter,
    instanceId: `1.2.3.${counter}`,
    apiVersion: 2,
    status: 'HISTORY_CREATED',
    urgent: false,
    reworked: false,
    signedOffAfterPrint: false,
    backedUpAt: null,
    deletedAt: null,
    assignedTo: null,
    assignedToName: null,
    auditor: null,
    auditStatus: null,
    lockedBy: null,
    referringDoctor: null,
    patientName: `Patient ${counter}`,
    patientId: `P${counter}`,
    uhid: '',
    patientSex: 'F',
    patientAge: '40Y',
    studyName: 'CT Chest',
    modality: 'CT',
    reportStudyPart: [],
    count: { series: 2, images: 120 },
    referringPhysicianName: 'Dr Ref',
    referringPhysicianEmail: null,
    consultingDoctorEmails: [],
    accessionNumber: '',
    department: null,
    institutionName: 'Demo Hospital',
    radiologyCenter: 'Demo Imaging Center',
    centerEmail: 'center@demo.local',
    mobileNumber: null,
    email: null,
    shareLink: null,
    sharedEmails: [],
    sharedNumbers: [],
    dunningLabels: [],
    invoiceNumber: '',
    history: 'Cough',
    splitFromReportStatusId: null,
    hasSplitChild: false,
    hasReports: false,
    attachmentCount: { history: 0, film: 0, report: 0 },
    studyDateTime: '2026-11-20 10:00:00',
    createdAt: '2026-11-20T10:00:00.000Z',
    firstUploadCompletedAt: '2026-11-20T10:05:00.000Z',
    lastUploadCompletedAt: '2026-11-20T10:05:00.000Z',
    signedOffAt: null,
    firstSignedOffAt: null,
    tags: [],
    ...overrides,
  };
}

export function buildStudyPage(
  rows: TStudyListRow[],
  total = rows.length,
  page = 0,
  size = 20,
): TStudyListPage {
  return toPageResponse(rows, total, page, size);
}
