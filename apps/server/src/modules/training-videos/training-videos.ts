import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, TRAINING_VIDEOS, type TTrainingVideoFile } from '@radflow/core';

/** The recordings of the FAQ's training videos found in the directory, in the FAQ's order. */
export async function listTrainingVideos(dir: string | undefined): Promise<TTrainingVideoFile[]> {
  if (!dir) return [];
  const found: TTrainingVideoFile[] = [];
  for (const video of TRAINING_VIDEOS) {
    const file = await fileOf(dir, `${video.id}.webm`);
    if (file) found.push({ id: video.id, bytes: file.size, recordedAt: file.mtime.toISOString() });
  }
  return found;
}

async function fileOf(dir: string, name: string) {
  try {
    const info = await stat(path.join(dir, name));
    return info.isFile() && info.size > 0 ? info : null;
  } catch {
    return null;
  }
}

export const MESSAGE_NO_RECORDING = 'This training video has not been recorded on this server.';

/** A recording's path and size; 404 when absent. `name` is checked by core ZTrainingVideoParams. */
export async function trainingVideoFile(
  dir: string | undefined,
  name: string,
): Promise<{ filePath: string; size: number }> {
  const file = dir ? await fileOf(dir, name) : null;
  if (!dir || !file) throw new AppError('NOT_FOUND', MESSAGE_NO_RECORDING, 'file');
  return { filePath: path.join(dir, name), size: file.size };
}

/**
 * One byte range of a `Range` header (RFC 9110 §14.1.2), as a video element asks for: `bytes=a-b`,
 * `bytes=a-` or `bytes=-n`. Null when absent, multi-range or not satisfiable (the whole file is sent,
 * which the header's rules allow).
 */
export function byteRangeOf(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || size === 0) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    return suffix === 0 ? null : { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return start > end || start >= size ? null : { start, end };
}
