/**
 * The DICOM UID grammar (PS3.5 §9.1): what a Study, Series or SOP Instance UID must be before any
 * way in (C-STORE, STOW-RS, browser upload, Create Study) accepts it. One rule for all of them: a
 * UID outside it (`..`, 200 digits) was stored and could then not be retrieved — URLs, C-FIND
 * answers and other archives all assume the grammar.
 *
 * No imports: the server's ingest workers load this alone (`@radflow/core/dicom-uid`).
 */

/** A UID is at most 64 characters (PS3.5 §9.1). */
export const DICOM_UID_MAX_LENGTH = 64;

const COMPONENT = /^(0|[1-9][0-9]*)$/;

/**
 * Why `uid` is not a valid DICOM UID, in a few words (they end up in a 64-character C-STORE Error
 * Comment), or null when it is one: components of digits separated by single dots, none empty,
 * none with a leading zero except a lone 0, at most 64 characters in all (PS3.5 §9.1).
 */
export function dicomUidProblem(uid: string): string | null {
  if (uid.length === 0) return 'empty';
  if (uid.length > DICOM_UID_MAX_LENGTH) return `over ${DICOM_UID_MAX_LENGTH} characters`;
  if (!/^[0-9.]+$/.test(uid)) return 'not only digits and dots';
  for (const component of uid.split('.')) {
    if (component === '') return 'an empty component';
    if (!COMPONENT.test(component)) return 'a component with a leading zero';
  }
  return null;
}

/** Whether `uid` follows the DICOM UID grammar (see {@link dicomUidProblem}). */
export function isValidDicomUid(uid: string): boolean {
  return dicomUidProblem(uid) === null;
}
