import { z } from 'zod';
import { isValidDicomUid } from '../dicom/dicom-uid.js';

/** spec-core §5 Create Study: modality choices; spec-lab §3 lists the extra ones (showExtraModalityType). */
export const CREATE_STUDY_MODALITIES = ['CT', 'MR', 'DX', 'US', 'MG', 'XA', 'IR'] as const;
export const EXTRA_MODALITIES = ['NM', 'RFDX', 'CDUS'] as const;
export const ALL_LAB_MODALITIES = [...CREATE_STUDY_MODALITIES, ...EXTRA_MODALITIES] as const;
export const PATIENT_SEXES = ['M', 'F', 'O'] as const;
export const UHID_MAX = 20;
export const PATIENT_AGE_MAX = 10;

const required = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
const optional = (field: string, max: number) =>
  z.string().trim().max(max, `${field} must be at most ${max} characters`).optional().default('');

/**
 * POST /api/dicom-web/study/create-from-website (spec-core §7, §5 Create Study). `center` is the
 * center's id; a center user's own center is forced by the server whatever is sent.
 */
export const ZCreateStudyRequest = z
  .object({
    patientName: required('Patient name', 64),
    uhid: optional('UHID', UHID_MAX),
    labModality: z.enum(ALL_LAB_MODALITIES, { error: 'Modality is required' }),
    patientAge: required('Patient age', PATIENT_AGE_MAX),
    patientSex: z.enum(PATIENT_SEXES, { error: 'Patient gender is required' }),
    center: z.coerce.number({ error: 'Center is required' }).int().positive('Center is required'),
    studyName: required('Study name', 64),
    patientId: optional('Patient id', 64),
    referringPhysicianName: optional('Referring physician', 64),
    history: optional('History', 10_000),
    /** Optional: a client that already knows the study's UID (else the server makes one). */
    studyInstanceUID: z
      .string()
      .trim()
      .max(64)
      .refine((uid) => uid === '' || isValidDicomUid(uid), 'studyInstanceUID must be a DICOM UID')
      .optional()
      .default(''),
    invoiceNumber: optional('Invoice number', 40),
    /**
     * With `studyInstanceUID`: when the group already holds that study for the same center, answer
     * its row (`joinedExisting`) instead of 409, changing nothing: the row keeps its identity and
     * the files sent next join it (archive DECISIONS.md "one row per study"). Create Study sets it
     * when the attached files' headers name the study.
     */
    joinExisting: z.boolean().optional().default(false),
    /** A lab bill's test line the study belongs to (spec-lab), when created from a bill. */
    studyId: z.coerce.number().int().positive().optional(),
    /**
     * The bill line (labBillTests id) the study is made for: the line is linked to the new study
     * (uploadedThroughWorkList false) and, without `studyInstanceUID`, the study takes the UID the
     * modality worklist hands out for the line. Must be of the center's lab (404) and not linked yet (409).
     */
    labBillTestId: z.coerce.number().int().positive().optional(),
  })
  .meta({ id: 'CreateStudyRequest' });
export type TCreateStudyRequest = z.input<typeof ZCreateStudyRequest>;

/** A center the user may pick in the Create Study dialog (GET /api/centers). */
export const ZCenterOption = z
  .object({ id: z.number().int(), name: z.string(), email: z.string() })
  .meta({ id: 'CenterOption' });
export type TCenterOption = z.infer<typeof ZCenterOption>;

/**
 * The answer to create-from-website: the study's row id and UID; `joinedExisting` when the row
 * was there already (`joinExisting`) and the typed details were not applied.
 */
export const ZCreatedStudy = z
  .object({
    id: z.number().int(),
    studyInstanceUID: z.string(),
    apiVersion: z.number().int(),
    joinedExisting: z.boolean(),
  })
  .meta({ id: 'CreatedStudy' });
export type TCreatedStudy = z.infer<typeof ZCreatedStudy>;

/** One file's outcome of a browser upload (POST /api/dicom-web/upload). */
export const ZUploadFileResult = z
  .object({
    fileName: z.string(),
    ok: z.boolean(),
    sopInstanceUid: z.string().nullable(),
    studyInstanceUid: z.string().nullable(),
    reportStatusId: z.number().int().nullable(),
    duplicate: z.boolean(),
    /**
     * Why the file was refused (not DICOM, truncated, another center's study, …); for a stored file,
     * a note: an instance already stored with other bytes keeps its first version.
     */
    reason: z.string().nullable(),
  })
  .meta({ id: 'UploadFileResult' });
export type TUploadFileResult = z.infer<typeof ZUploadFileResult>;

export const ZUploadResponse = z
  .object({
    stored: z.number().int(),
    failed: z.number().int(),
    files: z.array(ZUploadFileResult),
    /** The report-status ids the stored files belong to. */
    reportStatusIds: z.array(z.number().int()),
  })
  .meta({ id: 'UploadResponse' });
export type TUploadResponse = z.infer<typeof ZUploadResponse>;

/** Browser upload limits: the same numbers in the dialog and on the server. */
export const UPLOAD_MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;
export const UPLOAD_MAX_FILES_PER_REQUEST = 1000;
