import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { type TViewerPriors, VIEWER_PRIORS_LIMIT } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { reportStatuses, studies } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { scopeOfAuth, visibleReportRows } from '../studies/study-access.js';
import { patientDifferences } from './patient-identity.js';
import { loadViewerStudy } from './viewer-study.js';

/**
 * GET /api/viewer/:id/priors (issue 5 §3): the patient's other studies in the group that the caller
 * may see, newest first (study date and time, then the row id), at most 20.
 * - The patient is the report row's patient id (what the details form keeps) with the study's
 *   Issuer of Patient ID (0010,0021) as the files sent it, both matched exactly in the group (issue
 *   21 §8: one id under two issuers is two patients; no issuer is a value of its own, never a
 *   wildcard). The (group_id, patient_id) index serves it; the issuer is checked on those few rows.
 * - A prior whose name or birth date differ from the current study's is listed with `differs`
 *   naming them (patient-identity.ts): same id and issuer, perhaps not the same person.
 * - A row with an empty patient id matches on patient name and birth date instead, both non-empty
 *   (the (group_id, patient_name, id) index serves it); with neither there are no priors — a name
 *   alone joins strangers.
 * - Other report rows of the same archive study (a split) are not priors: they are the same images.
 */
export async function listPriors(db: DbOrTx, auth: TAuth, id: number): Promise<TViewerPriors> {
  const study = await loadViewerStudy(db, auth, id);
  let samePatient;
  if (study.patientId.trim() !== '') {
    samePatient = and(
      eq(reportStatuses.patientId, study.patientId),
      eq(studies.issuerOfPatientId, study.issuerOfPatientId),
    );
  } else if (study.patientName.trim() !== '' && study.patientBirthDate.trim() !== '') {
    samePatient = and(
      eq(reportStatuses.patientId, ''),
      eq(reportStatuses.patientName, study.patientName),
      eq(studies.patientBirthDate, study.patientBirthDate),
    );
  } else {
    return { priors: [] };
  }
  const rows = await db
    .select({
      id: reportStatuses.id,
      studyInstanceUid: studies.studyInstanceUid,
      apiVersion: reportStatuses.apiVersion,
      studyDate: studies.studyDate,
      studyTime: studies.studyTime,
      modalities: studies.modalities,
      studyName: reportStatuses.studyName,
      studyDescription: studies.studyDescription,
      instanceCount: studies.instanceCount,
      status: reportStatuses.status,
      patientName: reportStatuses.patientName,
      patientBirthDate: studies.patientBirthDate,
    })
    .from(reportStatuses)
    .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
    .where(
      and(
        eq(reportStatuses.groupId, study.groupId),
        samePatient,
        ne(reportStatuses.studyId, study.studyId),
        visibleReportRows(scopeOfAuth(auth)),
      ),
    )
    // '' (no study date) sorts last; DA and TM as text sort in time order.
    .orderBy(
      sql`nullif(${studies.studyDate}, '') desc nulls last`,
      desc(studies.studyTime),
      desc(reportStatuses.id),
    )
    .limit(VIEWER_PRIORS_LIMIT);
  return {
    priors: rows.map(({ studyName, studyDescription, ...row }) => ({
      ...row,
      studyDescription: studyName || studyDescription,
      differs: patientDifferences(study, row),
    })),
  };
}
