import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import { type CStoreInstanceResult, cStore, isDimseError } from '@radflow/dicom/dimse';
import type { AppContext } from '../../context.js';
import { forwardSendInstances, forwardSends, instances } from '../../db/schema.js';
import { nextAttemptAfterFailure } from './retry-policy.js';

/**
 * The forwarding worker (FORWARDING.md): claims due instances of one send, C-STOREs them over one
 * association, records each outcome, schedules retries and settles the send's status. Safe with
 * several server processes: rows are claimed with FOR UPDATE SKIP LOCKED and held by a lease.
 */

export interface ForwardingWorkerOptions {
  /** Our AE title (config DICOM_AET). */
  callingAet: string;
  /** Instances per association. */
  batchSize?: number;
  /** How long a claim holds; after a crash the rows are taken over once it ends. */
  leaseSeconds?: number;
  /** DIMSE timeout per association step. */
  timeoutMs?: number;
}

export interface TBatchOutcome {
  sendId: number;
  claimed: number;
  sent: number;
  failed: number;
  error: string | null;
}

interface TClaimedRow {
  id: number;
  send_id: number;
  attempts: number;
  blob_key: string;
}

const DEFAULT_BATCH = 200;
const DEFAULT_LEASE_SECONDS = 15 * 60;

/** Claims up to `batchSize` due instances of one send (the one with the oldest due instance). */
async function claimBatch(ctx: AppContext, batchSize: number, leaseSeconds: number): Promise<TClaimedRow[]> {
  const now = ctx.now();
  const leaseUntil = new Date(now.getTime() + leaseSeconds * 1000);
  const i = forwardSendInstances;
  const due = sql`${i.nextAttemptAt} <= ${now.toISOString()} and (${i.leaseUntil} is null or ${i.leaseUntil} < ${now.toISOString()})`;
  const result = await ctx.db.execute(sql`
    with picked as (
      select ${i.sendId} as send_id from ${i} where ${due}
      order by ${i.nextAttemptAt}, ${i.id} limit 1 for update skip locked
    ), claimed as (
      update ${i} set lease_until = ${leaseUntil.toISOString()}, attempts = ${i.attempts} + 1
      where ${i.id} in (
        select ${i.id} from ${i}
        where ${i.sendId} = (select send_id from picked) and ${due}
        order by ${i.id} limit ${batchSize} for update skip locked
      )
      returning ${i.id} as id, ${i.sendId} as send_id, ${i.attempts} as attempts, ${i.instanceId} as instance_id
    )
    select claimed.id, claimed.send_id, claimed.attempts, ${instances.blobKey} as blob_key
    from claimed join ${instances} on ${instances.id} = claimed.instance_id
    order by claimed.id
  `);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    send_id: Number(r.send_id),
    attempts: Number(r.attempts),
    blob_key: String(r.blob_key),
  }));
}

/** A local file for each blob: the store's own path, or a temp copy (removed by `cleanup`). */
async function localFiles(
  ctx: AppContext,
  keys: string[],
): Promise<{ paths: string[]; cleanup(): Promise<void> }> {
  const temps: string[] = [];
  const paths: string[] = [];
  for (const key of keys) {
    if (ctx.blobs.localPath) {
      paths.push(ctx.blobs.localPath(key));
      continue;
    }
    const temp = path.join(ctx.blobs.tempDir(), `forward-${randomBytes(8).toString('hex')}`);
    await pipeline(ctx.blobs.get(key), createWriteStream(temp));
    temps.push(temp);
    paths.push(temp);
  }
  return { paths, cleanup: async () => void (await Promise.all(temps.map((t) => rm(t, { force: true })))) };
}

/**
 * Runs one batch: claim, send, record. Returns null when nothing is due. Never throws for a PACS
 * that is down or refuses: those are failures recorded on the rows.
 */
export async function runForwardingBatch(
  ctx: AppContext,
  opts: ForwardingWorkerOptions,
): Promise<TBatchOutcome | null> {
  const claimed = await claimBatch(
    ctx,
    opts.batchSize ?? DEFAULT_BATCH,
    opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
  );
  const first = claimed[0];
  if (!first) return null;
  const sendId = first.send_id;
  const [send] = await ctx.db.select().from(forwardSends).where(eq(forwardSends.id, sendId));
  if (!send) return null;

  let results: Array<Pick<CStoreInstanceResult, 'status' | 'error'>>;
  let batchError: string | null = null;
  const files = await localFiles(
    ctx,
    claimed.map((c) => c.blob_key),
  );
  try {
    const outcome = await cStore({
      host: send.host,
      port: send.port,
      callingAet: opts.callingAet,
      calledAet: send.aeTitle,
      files: files.paths,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    });
    results = outcome.results;
    batchError = outcome.interrupted?.message ?? null;
  } catch (error) {
    // No association at all (refused, rejected, timed out): every claimed instance failed.
    const message = isDimseError(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
    results = claimed.map(() => ({ status: 'FAILED' as const, error: message }));
    batchError = message;
  } finally {
    await files.cleanup();
  }

  const now = ctx.now();
  const sentIds = claimed.filter((_, k) => results[k]?.status === 'SEND').map((c) => c.id);
  const failures = claimed
    .map((c, k) => ({ row: c, error: results[k]?.error ?? 'Not sent' }))
    .filter((_, k) => results[k]?.status !== 'SEND');
  const firstError = batchError ?? failures[0]?.error ?? null;

  await ctx.db.transaction(async (tx) => {
    // Lock the send first: two workers finishing halves of one send take turns here, and the
    // second one's statements (READ COMMITTED: a new snapshot each) then see the first one's
    // instances. Without it, each status check below could miss the other's rows and leave a
    // fully sent record IN_PROGRESS.
    await tx
      .select({ id: forwardSends.id })
      .from(forwardSends)
      .where(eq(forwardSends.id, sendId))
      .for('update');
    if (sentIds.length > 0) {
      await tx
        .update(forwardSendInstances)
        .set({ status: 'SEND', sentAt: now, nextAttemptAt: null, leaseUntil: null, lastError: null })
        .where(inArray(forwardSendInstances.id, sentIds));
    }
    for (const { row, error } of failures) {
      await tx
        .update(forwardSendInstances)
        .set({
          status: 'FAILED',
          lastError: error,
          nextAttemptAt: nextAttemptAfterFailure(row.attempts, now),
          leaseUntil: null,
        })
        .where(eq(forwardSendInstances.id, row.id));
    }
    const i = forwardSendInstances;
    // IN_PROGRESS while anything is due or scheduled; SEND when all went; FAILED when attempts ran out.
    await tx
      .update(forwardSends)
      .set({
        status: sql`case
          when exists (select 1 from ${i} where ${i.sendId} = ${sendId} and ${i.nextAttemptAt} is not null) then 'IN_PROGRESS'
          when exists (select 1 from ${i} where ${i.sendId} = ${sendId} and ${i.status} <> 'SEND') then 'FAILED'
          else 'SEND' end`,
        lastError: firstError === null ? sql`${forwardSends.lastError}` : firstError,
        updatedAt: now,
      })
      .where(eq(forwardSends.id, sendId));
  });
  return {
    sendId,
    claimed: claimed.length,
    sent: sentIds.length,
    failed: failures.length,
    error: firstError,
  };
}

export interface ForwardingWorker {
  /** Look for work now instead of at the next poll. */
  wake(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
}

/** Polls for due instances every `pollMs` (immediately again after a batch that found work). */
export function startForwardingWorker(
  ctx: AppContext,
  opts: ForwardingWorkerOptions & {
    pollMs?: number;
    onError?: (error: unknown) => void;
    onBatch?: (outcome: TBatchOutcome) => void;
  },
): ForwardingWorker {
  const pollMs = opts.pollMs ?? 2_000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeUp: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      let didWork = false;
      try {
        const outcome = await runForwardingBatch(ctx, opts);
        if (outcome) {
          didWork = true;
          opts.onBatch?.(outcome);
        }
      } catch (error) {
        opts.onError?.(error);
      }
      if (stopped || didWork) continue;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        timer = setTimeout(resolve, pollMs);
      });
      wakeUp = null;
    }
  })();
  return {
    wake() {
      wakeUp?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
