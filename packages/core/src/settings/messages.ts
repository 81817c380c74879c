/**
 * What the settings dialogs show and POST /api/setting/update… answers in `errorDescription`
 * (spec-lab §5 Settings). Texts marked "spec" are the spec's words; the spec gives only the rule for
 * the others, so the text is ours.
 */
export const SETTINGS_MESSAGES = {
  /** spec: tags. */
  tagCharacters: 'No special characters or spaces allowed!',
  /** spec: the tag delete confirmation (web). */
  tagDeleteConfirm: 'Are you sure you want to delete this tag?',
  /** spec: series mapping duplicate. */
  seriesNameDuplicate: 'This series name already exists. Delete the previous entry to make new entry.',
  seriesNamesRequired: 'Please enter both the series name and the preferred name.',
  /** spec: departments. */
  departmentDuplicate: 'Department with the same name already exists.',
  departmentNone: 'Department name cannot be "NONE".',
  /** spec: shown by the web when the department save fails. */
  departmentSaveFailed: 'Failed to save department. Please try again.',
  departmentRequired: 'Please enter a department name.',
  departmentCannotBeDeleted: 'Departments cannot be deleted.',
  /** spec: category/priority discount. */
  discountInvalid:
    'Discount must be a valid numeric value and cannot be negative. Please enter a value of 0 or greater.',
  discountTooLarge: 'Discount cannot be more than 100.',
  categoryNameRequired: 'Please enter a name.',
  categoryNone: 'The name "none" cannot be used.',
  categoryDuplicate: 'An entry with this name already exists.',
  /** spec-lab §9 mobile pattern (10 digits starting 6-9). */
  mobileInvalid: 'Please enter a valid 10-digit mobile number starting with 6, 7, 8 or 9.',
  emailInvalid: 'Please enter a valid email address.',
  fontSizeInvalid: 'Please choose one of the offered font sizes.',
  fontFamilyInvalid: 'Please choose one of the offered font families.',
  reportTextTooLong: 'The report text is too long.',
  /** spec: slots (the start/end text is the spec's, word for word). */
  slotStartAfterEnd: 'Start time must be greater than the end time!',
  slotDayRequired: 'Please select at least one day for the slot!',
  slotModalityRequired: 'Please select at least one lab modality for the slot!',
  slotDuplicateName: 'A slot with this name already exists. Please choose a different name.',
  slotDayInvalid: 'Days are numbered 0 (Sunday) to 6 (Saturday).',
  slotOneModality: 'Only one lab modality can be selected for a slot.',
  slotLimitInvalid: 'Appointment limit must be a whole number of at least 1.',
  slotNameRequired: 'Please enter a slot name.',
  slotTimeInvalid: 'Please enter the time as HH:mm (24-hour).',
  slotBlockedDateInvalid: 'Blocked dates must be in yyyy-MM-dd format.',
  slotAppointmentsOff: 'Appointment slots are not enabled for this group.',
  /** Billing details (spec-lab §3 billing; the spec gives no texts). */
  gstPercentageInvalid: 'GST percentage must be a number from 0 to 100.',
  panInvalid: 'Please enter a valid PAN (for example ABCDE1234F).',
  ifscInvalid: 'Please enter a valid IFSC code (for example SBIN0001234).',
  bankAccountInvalid: 'Bank account number must be 6 to 20 digits.',
  logoInvalid: 'The logo must be an uploaded image link.',
  /** spec-lab §6: the reset confirmation (web). */
  resetConfirm: 'You are resetting value for user please double check.',
  /** spec-lab §8: the success toast (web). */
  updated: 'Setting updated successfully',
  notAllowed: 'Your role has no access to this setting',
} as const;
