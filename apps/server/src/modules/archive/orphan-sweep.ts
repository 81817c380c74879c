import { and, eq, like } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { instances, studies } from '../../db/schema.js';
import { startPeriodicTask } from '../../periodic-task.js';
import { FsBlobStore } from '../storage/blob-store.js';

/** A blob must be this old before the sweep may take it: an ingest names a fresh file. */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes DICOM blobs that no `instances.blob_key` names and that were written more than
 * `minAgeMs` ago (ARCHIVE.md "orphan blobs"): what a crash between the blob and its commit, or a
 * refused batch, left behind. A blob being ingested is never taken: it is a file written moments
 * ago, and the store's per-key lock orders the check-and-unlink against an ingest naming the same
 * key. Old blobs are checked study directory by study directory (`dicom/<group>/<xx>/<study>/`),
 * each with one indexed lookup of that study's instances. Stores without local files (none yet)
 * are left alone. Returns the number deleted.
 */
export async function sweepOrphanBlobs(
  ctx: Pick<AppContext, 'db' | 'blobs'>,
  opts: { now: Date; minAgeMs?: number },
): Promise<number> {
  if (!(ctx.blobs instanceof FsBlobStore)) return 0;
  const store = ctx.blobs;
  const before = new Date(opts.now.getTime() - (opts.minAgeMs ?? ORPHAN_MIN_AGE_MS));
  let deleted = 0;
  let dir = '';
  let keys: string[] = [];
  const flush = async () => {
    if (keys.length === 0) return;
    const named = await namedKeys(ctx, dir);
    for (const key of keys) {
      if (!named.has(key) && (await store.deleteIfOlderThan(key, before))) deleted++;
    }
    keys = [];
  };
  // The walk yields a directory's files together.
  for await (const key of store.listOlderThan('dicom/', before)) {
    const keyDir = key.slice(0, key.lastIndexOf('/') + 1);
    if (keyDir !== dir) {
      await flush();
      dir = keyDir;
    }
    keys.push(key);
  }
  await flush();
  return deleted;
}

/** The blob keys the index holds under one study directory of the store. */
async function namedKeys(ctx: Pick<AppContext, 'db'>, dir: string): Promise<Set<string>> {
  const [, group, , study] = dir.split('/');
  const rows =
    /^[0-9]+$/.test(group ?? '') && /^[0-9][0-9.]*$/.test(study ?? '')
      ? await ctx.db
          .select({ key: instances.blobKey })
          .from(instances)
          .innerJoin(studies, eq(studies.id, instances.studyId))
          .where(and(eq(studies.groupId, Number(group)), eq(studies.studyInstanceUid, study!)))
      : // A hashed study UID (rare): the directory cannot be turned back into the study.
        await ctx.db
          .select({ key: instances.blobKey })
          .from(instances)
          .where(like(instances.blobKey, `${dir.replaceAll('%', '\\%').replaceAll('_', '\\_')}%`));
  return new Set(rows.map((r) => r.key));
}

/**
 * Runs {@link sweepOrphanBlobs} once an hour on an unref'd timer (the first run an hour after
 * start); the returned function stops it and waits for a run in progress.
 */
export function startOrphanSweep(
  ctx: AppContext,
  log: { info(data: object, message: string): void; error(data: object, message: string): void },
  everyMs = 60 * 60 * 1000,
): () => Promise<void> {
  return startPeriodicTask(
    async () => {
      const deleted = await sweepOrphanBlobs(ctx, { now: ctx.now() });
      if (deleted > 0) log.info({ deleted }, 'orphan DICOM blobs deleted');
    },
    everyMs,
    (error) => log.error({ err: error }, 'orphan blob sweep failed'),
  );
}
