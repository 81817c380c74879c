import { MESSAGES } from '../common/messages.js';

/**
 * The texts the worklist screens show, word for word from spec-core §2, §4 and §5 (the spec's
 * spelling and capitals kept). Shared by the web (alerts, labels) and the server (refusal bodies).
 */
export const WORKLIST_MESSAGES = {
  /** spec-core §2 Generic study table behaviour: the empty state, three lines. */
  emptyState: [
    MESSAGES.noResultFound,
    'We could not find what you searched for.',
    'You can try clearing all the filter.',
  ],
  /** spec-core §4 Rework: the icon alert afterwards. */
  reworked: 'Report has been Reworked (all report for this study have been deleted)',
  /** spec-core §4: the alert after a re-sign-off. */
  reSignedOff: 'Report has been Signed Off again, please ask center to re-print it.',
  /** Ours: images arrived after the report was signed off (the report is unchanged). */
  newImagesAfterSignOff: 'New images after sign-off',
  /** spec-core §4: viewing a deleted study. */
  studyDeleted: 'Study has been deleted',
  /** spec-core §4: the details form's submit button on a CREATED study (see sendsForReporting). */
  sendForReporting: 'Send for reporting',
  /** spec-core §5 Edit details form. */
  pleaseSelectStudyType: 'Please select study type',
  pleaseSelectReferringDoctor: 'Please select a referring doctor',
  referringDoctorNotAvailable: 'Referring doctor not available',
  patientNumberNotAvailable: 'Patient Number not available',
  /** spec-core §5 opening a study. */
  studyNotUploaded: 'Study not uploaded, please contact center',
  studyNotFullyUploaded: 'Study is not fully uploaded. please check with center',
  /** spec-core §5 forwarding. */
  pleaseCreatePacs: 'Please create pacs server',
  /** spec-core §4 Zip download: opening in an external viewer without a download folder. */
  addDownloadFolderPath: 'Please add path to download folder in Study Table setting',
  /** spec-core §8 info toasts. */
  studyTypeUpdated: 'Study type updated',
  historyUpdated: 'History updated',
  imageDeleted: 'Image deleted',
  imageAttached: 'Image attached',
  audioAttached: 'Audio attached',
  filesUploaded: (done: number, total: number) => `file uploaded ${done} out of ${total}`,
} as const;

/**
 * The actions that ask for confirmation first (spec-core §4 "Each of urgent, delete, split, unlock,
 * rework, assigning an auditor or referring doctor, linking a film, uploading a study to a center and
 * deleting a recording asks for confirmation first"; §4 Tags "created, toggled between local and
 * global, deleted, each with confirmation").
 */
export const CONFIRMED_ACTIONS = [
  'markUrgent',
  'markDeleted',
  'split',
  'unlock',
  'rework',
  'assignAuditor',
  'assignReferringDoctor',
  'linkFilm',
  'uploadStudyToCenter',
  'deleteRecording',
  'createTag',
  'deleteTag',
  'makeTagLocal',
  'makeTagGlobal',
] as const;
export type TConfirmedAction = (typeof CONFIRMED_ACTIONS)[number];

export interface TConfirmation {
  text: string;
  /** True when the text is the spec's (spec-core §5 tag confirms); false when we wrote it. */
  isSpecText: boolean;
}

const ours = (text: string): TConfirmation => ({ text, isSpecText: false });
const spec = (text: string): TConfirmation => ({ text, isSpecText: true });

/**
 * The confirm text of each confirmed action. The spec gives the tag texts only (spec-core §5); the
 * others are ours, and say what cannot be undone where the spec says so (delete is irreversible,
 * rework deletes every report).
 */
export const CONFIRMATIONS: Readonly<Record<TConfirmedAction, TConfirmation>> = {
  markUrgent: ours('Are you sure you want to change the urgent mark of this study?'),
  markDeleted: ours('Are you sure you want to delete this study? This cannot be undone.'),
  split: ours('Are you sure you want to split this study? A new study will be created from it.'),
  unlock: ours('Are you sure you want to unlock this report?'),
  rework: ours('Are you sure you want to rework this study? All reports of this study will be deleted.'),
  assignAuditor: ours('Are you sure you want to assign this auditor?'),
  assignReferringDoctor: ours('Are you sure you want to save this referring doctor?'),
  linkFilm: ours('Are you sure you want to link this film?'),
  uploadStudyToCenter: ours('Are you sure you want to upload this study to the center?'),
  deleteRecording: ours('Are you sure you want to delete this recording?'),
  createTag: ours('Are you sure you want to add this tag?'),
  deleteTag: spec('Are you sure you want to delete this tag?'),
  makeTagLocal: spec('Are you sure you want to make this tag local?'),
  makeTagGlobal: spec('Are you sure you want to make this tag global?'),
};

/** spec-core §4: whether an action asks for confirmation before it runs. */
export function needsConfirmation(action: string): action is TConfirmedAction {
  return (CONFIRMED_ACTIONS as readonly string[]).includes(action);
}
