import { lazy } from 'react';

/**
 * The study dialogs, each its own chunk, loaded the first time one opens: the study list paints with
 * the row buttons only (issue 4 §5: login plus the study list ≤ 300 KB gzip).
 */
export const EditStudyDetailsDialog = lazy(() => import('./EditStudyDetailsDialog'));
export const AttachmentsDialog = lazy(() => import('./AttachmentsDialog'));
export const ShareStudyDialog = lazy(() => import('./ShareStudyDialog'));
export const AssignDoctorDialog = lazy(() => import('./AssignDoctorDialog'));
export const AssignAuditorDialog = lazy(() => import('./AssignAuditorDialog'));
export const StudyHistoryDialog = lazy(() => import('./StudyHistoryDialog'));
export const NotificationTimelineDialog = lazy(() => import('./NotificationTimelineDialog'));
export const TagDialog = lazy(() => import('./TagDialog'));
export const QrCodePrintDialog = lazy(() => import('./QrCodePrintDialog'));
export const MultiAssignDialog = lazy(() => import('./MultiAssignDialog'));
