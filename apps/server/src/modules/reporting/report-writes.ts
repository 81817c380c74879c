import {
  AppError,
  REPORTING_MESSAGES,
  type TReportingRefusal,
  checkTypistDoctor,
  hasReportContent,
} from '@radflow/core';
import type { Tx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { sanitizeReportHtml } from '../preferences/sanitize-report-html.js';
import { findMappedDoctor, findUserById } from './reporting.repository.js';

/* What every reporting write shares: turning a core refusal into the error, the doctor the caller
 * writes for and the cleaned content (its timeline row: study-events recordStudyEvent). */

/** A core refusal as the HTTP error (403 / 409 / 400 with the field in additionalInfo). */
export function throwIfRefused(refusal: TReportingRefusal | null): void {
  if (refusal) throw new AppError(refusal.kind, refusal.message, refusal.field);
}

export type TDoctor = { id: number; email: string; identifier: string };

/** The doctor the caller writes for: themselves, or (a typist) the mapped doctor they name. */
export async function doctorOfCaller(
  tx: Tx,
  auth: TAuth,
  actor: 'DOCTOR' | 'TYPIST',
  doctorEmail: string | undefined,
): Promise<TDoctor> {
  if (actor === 'DOCTOR') return auth.user;
  const mapped = doctorEmail ? await findMappedDoctor(tx, auth.user, doctorEmail) : null;
  throwIfRefused(checkTypistDoctor({ doctorEmail, isMappedDoctor: mapped !== null }));
  return findUserById(tx, (mapped as { id: number }).id);
}

/** The report HTML cleaned as stored; a sign-off or an addendum needs some content. */
export function cleanReportContent(content: string, mustHaveContent: boolean): string {
  const clean = sanitizeReportHtml(content);
  if (mustHaveContent && !hasReportContent(clean)) {
    throw new AppError('BAD_REQUEST', REPORTING_MESSAGES.reportContentRequired, 'content');
  }
  return clean;
}
