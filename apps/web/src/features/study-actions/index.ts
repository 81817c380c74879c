/**
 * Study row actions and study dialogs (issue 4 §2, §4; spec-core §2 "Study detail dialogs and
 * widgets", §4 Actions offered). The dialogs are exported lazily (React.lazy, render inside a
 * Suspense) so that importing this module keeps them out of the study list's first chunk.
 */
export { StudyRowActions } from './StudyRowActions';
export { MultiAssignButton } from './MultiAssignButton';
export {
  AssignAuditorDialog,
  AssignDoctorDialog,
  AttachmentsDialog,
  EditStudyDetailsDialog,
  NotificationTimelineDialog,
  QrCodePrintDialog,
  ShareStudyDialog,
  StudyHistoryDialog,
  TagDialog,
} from './lazy-dialogs';
export type { TStudyDialogProps } from './dialog-props';
export {
  ROW_ACTION_LABELS,
  offeredRowActions,
  rowOpenAction,
  viewEntryOf,
  viewerPath,
  reportEditPath,
} from './row-actions';
export { useActor, useOpenStudy } from './use-study-actions';
export { AuditStatusCell } from './AuditStatusCell';
