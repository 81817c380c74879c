import { sql } from 'drizzle-orm';
import { reportStatuses, studies } from './schema.js';

/**
 * The modalities a study row shows (lists, filters, detail, share page, documents): the one the
 * clerk chose in Create Study (`report_statuses.modality`, issue 21 §4), else what DICOM says
 * (`studies.modalities`, which QIDO-RS and C-FIND answer as ModalitiesInStudy). For a query that
 * joins both tables.
 */
export const rowModalities = sql<
  string[]
>`(case when ${reportStatuses.modality} <> '' then array[${reportStatuses.modality}] else ${studies.modalities} end)`;
