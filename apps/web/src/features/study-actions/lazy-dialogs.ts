import { preloadable } from '../../lib/preloadable';

/**
 * The study dialogs, each its own chunk, loaded the first time one opens: the study list paints with
 * the row buttons only (issue 4 §5: login plus the study list ≤ 300 KB gzip).
 */
export const EditStudyDetailsDialog = preloadable(() => import('./EditStudyDetailsDialog'));
export const AttachmentsDialog = preloadable(() => import('./AttachmentsDialog'));
export const ShareStudyDialog = preloadable(() => import('./ShareStudyDialog'));
export const AssignDoctorDialog = preloadable(() => import('./AssignDoctorDialog'));
export const AssignAuditorDialog = preloadable(() => import('./AssignAuditorDialog'));
export const StudyHistoryDialog = preloadable(() => import('./StudyHistoryDialog'));
export const NotificationTimelineDialog = preloadable(() => import('./NotificationTimelineDialog'));
export const TagDialog = preloadable(() => import('./TagDialog'));
export const QrCodePrintDialog = preloadable(() => import('./QrCodePrintDialog'));
export const MultiAssignDialog = preloadable(() => import('./MultiAssignDialog'));
