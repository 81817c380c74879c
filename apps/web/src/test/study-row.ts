import { type TStudyListPage, type TStudyListRow, toPageResponse } from '@radflow/core';

let counter = 0;

/**
 * A study list row as the list calls answer it (tests only): a CREATED study with a patient mobile
 * number and no center id; unique id and patient per call; any field overridable.
 */
export function buildStudyRow(overrides: Partial<TStudyListRow> = {}): TStudyListRow {
  counter += 1;
  return {
    id: 1000 + counter,
    instanceId: `1.2.826.0.1.${counter}`,
    apiVersion: 2,
    status: 'CREATED',
    urgent: false,
    reworked: false,
    signedOffAfterPrint: false,
    newImagesAfterSignOffAt: null,
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
    patientSex: 'M',
    patientAge: '45Y',
    studyName: 'CT Chest',
    modality: 'CT',
    reportStudyPart: [],
    count: { series: 2, images: 120 },
    referringPhysicianName: 'Dr Rao',
    referringPhysicianEmail: null,
    consultingDoctorEmails: [],
    accessionNumber: '',
    department: null,
    institutionName: 'Demo Imaging Center',
    radiologyCenter: 'Demo Imaging Center',
    centerEmail: 'center@demo.local',
    mobileNumber: '9876500001',
    email: null,
    shareLink: null,
    sharedEmails: [],
    sharedNumbers: [],
    dunningLabels: [],
    invoiceNumber: '',
    history: 'Cough for 3 weeks',
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

/** The same row sent for reporting (HISTORY_CREATED): what every list, a doctor's too, shows. */
export function buildReportingStudyRow(overrides: Partial<TStudyListRow> = {}): TStudyListRow {
  return buildStudyRow({ status: 'HISTORY_CREATED', ...overrides });
}

/** A page response of `rows` (page 0 of 20 unless told). */
export function buildStudyPage(
  rows: TStudyListRow[],
  total = rows.length,
  page = 0,
  size = 20,
): TStudyListPage {
  return toPageResponse(rows, total, page, size);
}
