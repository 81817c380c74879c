import type {
  TStudyColumnId,
  TStudyListFilterField,
  TStudyListRow,
  TStudyListSortField,
} from '@radflow/core';

/**
 * What the list calls can do with a column (core STUDY_LIST_SORT_FIELDS / STUDY_LIST_FILTER_FIELDS,
 * which the server checks): the row field a column sorts by (orderingCriteria) and the filter key its
 * filter box sends. A column without an entry has no sort button or no filter box. The simple status
 * column has no filter box: its PENDING is several stored statuses, which a text filter cannot say.
 */
export const SORT_KEYS: Partial<Record<TStudyColumnId, TStudyListSortField>> = {
  id: 'id',
  patient: 'patientName',
  patientId: 'patientId',
  age: 'patientAge',
  studyName: 'studyName',
  center: 'radiologyCenter',
  radiologyCenter: 'institutionName',
  reportStatus: 'status',
  status: 'status',
  studyDate: 'studyDateTime',
  created: 'createdAt',
  uploadedDate: 'lastUploadCompletedAt',
  signedOffDate: 'signedOffAt',
  assigned: 'assignedTo',
  auditor: 'auditor',
  referral: 'referringPhysicianName',
  department: 'department',
  email: 'email',
  contactNo: 'mobileNumber',
  invoiceNumber: 'invoiceNumber',
  risCreatedDate: 'createdAt',
  risReferringDoctor: 'referringPhysicianName',
  risUhid: 'uhid',
  risMobile: 'mobileNumber',
};

export const FILTER_KEYS: Partial<Record<TStudyColumnId, TStudyListFilterField>> = {
  id: 'id',
  patient: 'patientName',
  patientId: 'patientId',
  age: 'patientAge',
  studyName: 'studyName',
  studyType: 'reportStudyPart',
  tag: 'tags',
  history: 'history',
  center: 'radiologyCenter',
  radiologyCenter: 'institutionName',
  reportStatus: 'status',
  assigned: 'assignedTo',
  auditor: 'auditor',
  referral: 'referringPhysicianName',
  department: 'department',
  email: 'email',
  contactNo: 'mobileNumber',
  invoiceNumber: 'invoiceNumber',
  risReferringDoctor: 'referringPhysicianName',
  risUhid: 'uhid',
  risMobile: 'mobileNumber',
};

/**
 * The upload-pending badge (spec-core §2: "appears when the study is not fully uploaded; the rule is
 * not shown"). Decision: the rule of the §5 download refusal — a study sent through the upload API
 * (apiVersion above 1) whose last upload has not completed. Version-1 studies never have an upload
 * completion, so they never show the badge.
 */
export function isUploadPending(row: Pick<TStudyListRow, 'apiVersion' | 'lastUploadCompletedAt'>): boolean {
  return row.apiVersion > 1 && !row.lastUploadCompletedAt;
}
