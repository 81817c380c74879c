import { isTeleUser } from '../identity/permissions.js';
import type { TGroupFlags } from '../settings/preferences.js';
import { type TRole, hasRole, isCenterUser, isSoleDoctor } from '../identity/roles.js';
import type { TZipAnonymizationType, TZipVariant } from './schemas.js';
import { isUploadPending } from '../viewer/upload-state.js';

/** The refusal texts of spec-core §5, word for word (the spec's spelling of 'downladed' kept). */
export const ZIP_MESSAGES = {
  notUploaded: 'Study is not uploaded yet so cannot be downladed. Please try after some time',
  backupPassed: (months: number, days: number) =>
    `Backup duration of study (${months} months) has passed by ${days} days`,
  zipDisabled: 'Zip download is disabled for you',
  zipNotReady: 'The zip of this study is not ready yet. Please run the download job first',
} as const;

type TZipFlags = Pick<
  TGroupFlags,
  | 'disableZipDownloadingForCenter'
  | 'allowReferringDoctorToDownloadZip'
  | 'disableDownloadZipForDoctor'
  | 'teleMedSpecificCustomization'
>;

/**
 * spec-core §5 "Zip download is disabled for": a tele user or center with the disable-zip setting;
 * a referring doctor unless allowed; a sole doctor with disableDownloadZipForDoctor;
 * tele-medicine-customised assignors and centers. The web hides the button with this rule and the
 * server refuses the job and the link with it.
 */
export function canDownloadZip(roles: readonly TRole[], flags: TZipFlags): boolean {
  const isCenter = isCenterUser(roles);
  if (flags.disableZipDownloadingForCenter && (isCenter || isTeleUser(roles))) return false;
  if (hasRole(roles, 'ROLE_REFERRING_DOCTOR') && !flags.allowReferringDoctorToDownloadZip) return false;
  if (flags.disableDownloadZipForDoctor && isSoleDoctor(roles)) return false;
  if (flags.teleMedSpecificCustomization && (isCenter || hasRole(roles, 'ROLE_ASSIGNOR'))) return false;
  return true;
}

const DAY_MS = 86_400_000;
/** spec-core §5 compares the backup duration in days; a month counts 30 of them. */
export const DAYS_PER_BACKUP_MONTH = 30;

/**
 * spec-core §5 study download refusals, in the order the web checks them: a study of apiVersion
 * above 1 not yet fully uploaded, then a study past the group's backup duration (counted from the
 * study's creation). Returns the message to show, or null when the download may go ahead.
 */
export function zipDownloadRefusal(study: {
  apiVersion: number;
  lastUploadCompletedAt: Date | string | null;
  createdAt: Date | string;
  durationOfBackupInMonth: number | null;
  now: Date;
}): string | null {
  if (isUploadPending(study)) return ZIP_MESSAGES.notUploaded;
  const months = study.durationOfBackupInMonth;
  if (months) {
    const ageDays = Math.floor((study.now.getTime() - new Date(study.createdAt).getTime()) / DAY_MS);
    const over = ageDays - months * DAYS_PER_BACKUP_MONTH;
    if (over > 0) return ZIP_MESSAGES.backupPassed(months, over);
  }
  return null;
}

/**
 * Which zip a user gets (spec-core §3 Job zipAnonymizationTypeEnum, §6 "Admin users may anonymise
 * zips (sole-doctor-only anonymise type)", group switch anonymizePatientForDoctor). The group's
 * policy is a floor: a request may ask for more anonymisation, never for less.
 * - anonymizePatientForDoctor: sole doctors always get the anonymised zip;
 * - type ALL (the admin's anonymizeZipType or the request's): everyone gets it;
 * - type SOLE_DOCTOR_ONLY: sole doctors get it.
 */
export function zipVariantFor(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'anonymizeZipType' | 'anonymizePatientForDoctor'>,
  requested: TZipAnonymizationType | null | undefined,
): TZipVariant {
  const soleDoctor = isSoleDoctor(roles);
  const applies = (type: TZipAnonymizationType | null | undefined) =>
    type === 'ALL' || (type === 'SOLE_DOCTOR_ONLY' && soleDoctor);
  if (flags.anonymizePatientForDoctor && soleDoctor) return 'ANONYMIZED';
  return applies(flags.anonymizeZipType) || applies(requested) ? 'ANONYMIZED' : 'NONE';
}
