/** Durable file writes: the data fsynced before the rename, the directory fsynced after it. */
import { open, rename, unlink } from 'node:fs/promises';

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

/** Writes `bytes` to `tempPath`, fsyncs it, renames it to `finalPath` and fsyncs the directory. */
export async function writeFileDurably(
  tempPath: string,
  finalPath: string,
  finalDir: string,
  bytes: Uint8Array,
): Promise<void> {
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
  await fsyncDir(finalDir);
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
