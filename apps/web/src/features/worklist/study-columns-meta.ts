import type { TStudyColumnId, TStudyListFilterField, TStudyListSortField } from '@radflow/core';

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

/** The upload-pending badge's rule lives in core (the viewer reads it too); re-exported for the cells. */
export { isUploadPending } from '@radflow/core';
