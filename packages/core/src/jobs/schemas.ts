import { z } from 'zod';
import { ANONYMIZE_ZIP_TYPES } from '../settings/preferences.js';

/** Jobs the server runs on request (spec-core §3 Job, §7 POST /batch/run). */
export const JOB_NAMES = ['ZIP_STUDY'] as const;
export type TJobName = (typeof JOB_NAMES)[number];

/** States of one run as the jobs table records them. */
export const JOB_RUN_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type TJobRunStatus = (typeof JOB_RUN_STATUSES)[number];

/**
 * What POST /batch/run answers (spec-core §3 Job result): COMPLETED, FAILED, FAILED_PREVIOUSLY;
 * QUEUED and RUNNING mean in progress.
 */
export const JOB_STATUSES = [...JOB_RUN_STATUSES, 'FAILED_PREVIOUSLY'] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];

/** spec-core §3 Job: zipAnonymizationTypeEnum takes the values of the admin's anonymizeZipType. */
export const ZIP_ANONYMIZATION_TYPES = ANONYMIZE_ZIP_TYPES;
export type TZipAnonymizationType = (typeof ZIP_ANONYMIZATION_TYPES)[number];

/** The stored zips of a study: the original files, or the files run through the anonymiser. */
export const ZIP_VARIANTS = ['NONE', 'ANONYMIZED'] as const;
export type TZipVariant = (typeof ZIP_VARIANTS)[number];

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .optional()
  .default(false);

/** spec-core §3 Job: the payload of POST /batch/run. */
export const ZJobRequest = z
  .object({
    jobName: z.enum(JOB_NAMES, { error: 'Unknown job name' }),
    /** The Study Instance UID or numeric study id as the web sends it; the report id decides. */
    studyId: z.union([z.string().max(128), z.number()]).nullish(),
    seriesId: z.union([z.string().max(128), z.number()]).nullish(),
    reportStatusId: z.coerce.number().int().positive(),
    zipAnonymizationTypeEnum: z.enum(ZIP_ANONYMIZATION_TYPES).nullish(),
    recreateZip: flag,
    forceTrigger: flag,
  })
  .meta({ id: 'JobRequest' });
export type TJobRequest = z.input<typeof ZJobRequest>;

export const ZJobRunResponse = z
  .object({ jobStatus: z.enum(JOB_STATUSES), error: z.string().nullable() })
  .meta({ id: 'JobRunResponse' });
export type TJobRunResponse = z.infer<typeof ZJobRunResponse>;

/** spec-core §3 Job progress record, with the run's status. Percentages are 0–100. */
export const ZJobProgress = z
  .object({
    jobName: z.enum(JOB_NAMES),
    jobStatus: z.enum(JOB_RUN_STATUSES),
    error: z.string().nullable(),
    numberOfJob: z.number().int(),
    completedJob: z.number().int(),
    progress: z.number().int().min(0).max(100),
    fileDownloadProgress: z.number().int().min(0).max(100),
    patientName: z.string(),
  })
  .meta({ id: 'JobProgress' });
export type TJobProgress = z.infer<typeof ZJobProgress>;

/** spec-core §7 GET /dicom-web/zip-v2/complete/studies/link/{id}: `data.zipUrl.downloadUrl`. */
export const ZZipLinkResponse = z
  .object({
    data: z.object({
      zipUrl: z.object({ downloadUrl: z.string(), expiresAt: z.string() }),
    }),
  })
  .meta({ id: 'ZipLinkResponse' });
export type TZipLinkResponse = z.infer<typeof ZZipLinkResponse>;
