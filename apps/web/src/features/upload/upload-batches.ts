import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES_PER_REQUEST, type TUploadFileResult } from '@radflow/core';

/**
 * How a browser upload is cut into requests. Small requests keep a failure cheap (only that batch is
 * sent again) and let the progress move file by file; the server's per-request cap still applies.
 */
export interface TBatchLimits {
  maxFiles: number;
  maxBytes: number;
}

export const BATCH_LIMITS: TBatchLimits = {
  maxFiles: Math.min(20, UPLOAD_MAX_FILES_PER_REQUEST),
  maxBytes: 50 * 1024 * 1024,
};

/**
 * Splits files, in order, into batches of at most `maxFiles` files and `maxBytes` bytes. A file larger
 * than `maxBytes` on its own travels alone.
 */
export function splitIntoBatches<T extends { size: number }>(
  files: readonly T[],
  limits: TBatchLimits = BATCH_LIMITS,
): T[][] {
  const maxFiles = Math.max(1, Math.min(limits.maxFiles, UPLOAD_MAX_FILES_PER_REQUEST));
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of files) {
    const full = current.length >= maxFiles || (current.length > 0 && bytes + file.size > limits.maxBytes);
    if (full) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export function totalBytes(files: readonly { size: number }[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}

/** Whole percent of bytes sent, never above 100 (spec-core §4: progress capped at 100). */
export function uploadPercent(sent: number, total: number): number {
  if (total <= 0) return sent > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.floor((sent * 100) / total)));
}

/** spec-core §8 info text, word for word. */
export function uploadedText(done: number, total: number): string {
  return `file uploaded ${done} out of ${total}`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${units[unit]}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export interface TRefusedSummary {
  heading: string;
  lines: string[];
}

/** The files the server would not store, each with its reason ('a.txt — not a DICOM file'). */
export function describeRefused(results: readonly TUploadFileResult[]): TRefusedSummary | null {
  const refused = results.filter((r) => !r.ok);
  if (refused.length === 0) return null;
  return {
    heading: `${plural(refused.length, 'file was', 'files were')} refused:`,
    lines: refused.map((r) => `${r.fileName} — ${r.reason ?? 'not stored'}`),
  };
}

/**
 * Stored files the server answered with a note: an instance stored already with other content,
 * whose first version was kept (archive DECISIONS.md "instance ownership").
 */
export function describeNoted(results: readonly TUploadFileResult[]): TRefusedSummary | null {
  const noted = results.filter((r) => r.ok && r.reason);
  if (noted.length === 0) return null;
  return {
    heading: `${plural(noted.length, 'file was', 'files were')} stored already:`,
    lines: noted.map((r) => `${r.fileName} — ${r.reason}`),
  };
}

export interface TPickRefusal {
  name: string;
  reason: string;
}

/** The identity of a picked file, so that picking the same file twice adds it once. */
const fileKey = (f: File) => `${f.webkitRelativePath || f.name}|${f.size}|${f.lastModified}`;

/**
 * Adds newly picked files to the selection: duplicates are dropped, files over the server's per-file
 * limit are refused with a reason, and hidden system files found inside a picked folder (.DS_Store,
 * ._x) are skipped since they are never images.
 */
export function addPickedFiles(
  current: readonly File[],
  incoming: readonly File[],
  maxFileBytes: number = UPLOAD_MAX_FILE_BYTES,
): { files: File[]; refused: TPickRefusal[] } {
  const seen = new Set(current.map(fileKey));
  const files = [...current];
  const refused: TPickRefusal[] = [];
  for (const file of incoming) {
    if (file.webkitRelativePath && file.name.startsWith('.')) continue;
    if (file.size > maxFileBytes) {
      refused.push({
        name: file.name,
        reason: `too large (${formatBytes(file.size)}); one file may be at most ${formatBytes(maxFileBytes)}`,
      });
      continue;
    }
    const key = fileKey(file);
    if (seen.has(key)) continue;
    seen.add(key);
    files.push(file);
  }
  return { files, refused };
}
