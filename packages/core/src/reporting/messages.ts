/**
 * The reporting messages (issue 7). Only the re-sign-off alert is the spec's text (spec-core §4); the
 * others are ours, written so a user knows what to do next.
 */
export const REPORTING_MESSAGES = {
  /** spec-core §4, word for word: the answer to a re-sign-off of a printed report. */
  signedOffAgain: 'Report has been Signed Off again, please ask center to re-print it.',
  readOnly: 'You can read this report but not change it',
  notReporter: 'Only doctors and typists write reports',
  lockedByOther: 'Study is locked by someone else',
  assignedToOther: 'Study is assigned to another doctor',
  /** spec-core §6 the typist gate: a typist first chooses the doctor they type for. */
  chooseDoctor: 'Please choose the doctor you are typing for',
  notYourDoctor: 'You do not type for this doctor',
  notOpened: 'Open the study for reporting first',
  typistCannotSignOff: 'Only the doctor can sign off the report',
  signedOffNeedsSignOff: 'A signed-off report can only be signed off again or given an addendum',
  reSignOffDisabled: 'Signing off this report again is disabled',
  addendumNeedsSignOff: 'An addendum can be added to a signed-off report only',
  addendumNotYours: 'Only the doctor who signed off the report can add an addendum',
  nothingToVerify: 'The report is not waiting for verification',
  reportNameRequired: 'Please enter report name',
  reportContentRequired: 'Please write the report',
  reportTooLong: 'Report is too long',
  /** issue 21 §7: a save started from an older version than the one stored (another tab or writer). */
  savedElsewhere:
    'This report was saved elsewhere after you opened it: reload it, or keep your text as a new version',
  baseVersionRequired: 'baseVersion is required: the saved version the text started from (null for none)',
  templateNameRequired: 'Please enter template name',
  templateNameTaken: 'A template with this name already exists',
  templateCreateDisabled: 'Creating templates is disabled for radiologists',
  templateNotYours: 'Only the owner or a group admin can change this template',
  templateNotAllowed: 'Your role cannot manage templates',
} as const;
