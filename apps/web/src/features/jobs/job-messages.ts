import { formatPersonName } from '@radflow/core';

/**
 * The job texts of spec-core §8, word for word. They are the web's alone (the server answers a
 * status and an error, never these sentences), so they live here and not in @radflow/core.
 */
export const JOB_MESSAGES = {
  stillRunning: (name: string) => `Job still running ${name}`,
  failed: (name: string, error: string | null) =>
    error ? `Job failed ${name} ${error}` : `Job failed ${name}`,
  timeout: (name: string) => `Job timeout ${name}`,
  /** The failed-previously confirm; the server's error text is shown with it. */
  failedPreviously:
    'This job has failed already less than 30 mins ago. Do you want to forcefully trigger it again?',
} as const;

/**
 * The `{name}` of the job messages: the patient's name as the study row or the job's progress record
 * carries it (core formatPersonName: 'DOE^JANE' reads 'JANE DOE'), with the study id so that two studies of one
 * patient can be told apart — 'Jane Doe (study 42)'. An anonymised zip's record has no patient name;
 * then it is just 'study 42'.
 */
export function jobDisplayName(patientName: string | null | undefined, reportStatusId: number): string {
  const patient = formatPersonName(patientName);
  return patient ? `${patient} (study ${reportStatusId})` : `study ${reportStatusId}`;
}
