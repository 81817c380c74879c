import { z } from 'zod';
import { DICOM_UID_MAX_LENGTH, dicomUidProblem } from './dicom-uid.js';

/**
 * A Study Instance UID in a request body or query, checked against the one UID grammar
 * (`dicomUidProblem`) so that a call names a malformed UID (`1..2`, `01.2`) as such instead of
 * answering that no study has it. Kept apart from dicom-uid.ts, which must stay import-free.
 */
export const ZStudyInstanceUid = z
  .string()
  .trim()
  .min(1, { message: 'studyInstanceUid is required', abort: true })
  .max(DICOM_UID_MAX_LENGTH, {
    message: `studyInstanceUid is at most ${DICOM_UID_MAX_LENGTH} characters`,
    abort: true,
  })
  .superRefine((uid, ctx) => {
    const problem = dicomUidProblem(uid);
    if (problem !== null)
      ctx.addIssue({ code: 'custom', message: `studyInstanceUid must be a DICOM UID (${problem})` });
  });
