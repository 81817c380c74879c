/** Durable file writes: the data fsynced before the rename, the directory fsynced after it. */
import { randomUUID } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Fsyncs a directory so that a rename or unlink in it survives a power cut. Windows cannot open a
 * directory for fsync (EPERM/EISDIR); NTFS journals its metadata, so there it is skipped.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file so that a reader sees the old content or the new, never a part, and the new one
 * survives a power cut: `content` into `tempPath` (by default a fresh name beside the file), fsynced,
 * renamed over `finalPath`, then the directory fsynced. The router's one way to write a file.
 */
export async function writeFileDurably(
  finalPath: string,
  content: Uint8Array | string,
  tempPath = `${finalPath}.${randomUUID()}.tmp`,
): Promise<void> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const handle = await open(tempPath, 'w');
  try {
    await handle.write(bytes, 0, bytes.length);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(tempPath, finalPath);
  await fsyncDir(dirname(finalPath));
}

/** Moves an already complete file (e.g. the SCP's temp file) into place durably. */
export async function moveFileDurably(fromPath: string, finalPath: string, finalDir: string): Promise<void> {
  const handle = await open(fromPath, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(fromPath, finalPath);
  await fsyncDir(finalDir);
}
