import type { TUploadState } from './schemas.js';

/** The facts of a study row that say whether its images have arrived. */
export interface TUploadFacts {
  /** 2 for studies held by this archive (spec-core §5 "apiVersion above 1"). */
  apiVersion: number;
  /** Instances the archive holds for the study; unknown (null) counts as some. */
  instanceCount: number | null;
  lastUploadCompletedAt: Date | string | null;
}

/**
 * Whether a study's upload has completed (spec-core §2 "An upload-pending badge appears when the
 * study is not fully uploaded; the rule is not shown"). Decision: the rule of the §5 download refusal
 * — a study sent through the upload API (apiVersion above 1) whose last upload has not been marked
 * complete (the archive marks it after a quiet time). Version-1 studies never have an upload
 * completion, so they never count as pending. The worklist badge and the viewer both read this.
 */
export function isUploadPending(row: Pick<TUploadFacts, 'apiVersion' | 'lastUploadCompletedAt'>): boolean {
  return row.apiVersion > 1 && !row.lastUploadCompletedAt;
}

/**
 * The upload state the viewer acts on (spec-core §5 "Opening a study whose upload is missing: 'Study
 * not uploaded, please contact center'; partially uploaded: 'Study is not fully uploaded. please
 * check with center'"): NONE when no image has arrived, PARTIAL while the upload is pending
 * (`isUploadPending`), else COMPLETE.
 */
export function uploadStateOf(row: TUploadFacts): TUploadState {
  if (row.instanceCount === 0) return 'NONE';
  return isUploadPending(row) ? 'PARTIAL' : 'COMPLETE';
}
