import { and, asc, eq } from 'drizzle-orm';
import {
  AppError,
  FORWARDING_MESSAGES,
  type TEchoResult,
  type TForwardingPacs,
  type ZForwardingPacsInput,
} from '@radflow/core';
import { cEcho, isDimseError } from '@radflow/dicom/dimse';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { type TForwardingPacsRow, centers, forwardingPacs } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { assertForwardingEnabled, assertMayManagePacs, resolveCenterId } from './forwarding-access.js';

/** How long a C-ECHO test waits for the PACS. */
export const ECHO_TIMEOUT_MS = 10_000;

export function toForwardingPacs(row: TForwardingPacsRow): TForwardingPacs {
  return {
    id: row.id,
    centerId: row.centerId,
    name: row.name,
    aeTitle: row.aeTitle,
    ip: row.host,
    port: row.port,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /api/forwarding-pacs: the center's destinations, oldest first. */
export async function listForwardingPacs(
  ctx: AppContext,
  auth: TAuth,
  opts: { centerId?: number | undefined },
): Promise<TForwardingPacs[]> {
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const centerId = await resolveCenterId(ctx.db, auth, opts.centerId);
  const rows = await ctx.db
    .select()
    .from(forwardingPacs)
    .where(eq(forwardingPacs.centerId, centerId))
    .orderBy(asc(forwardingPacs.id));
  return rows.map(toForwardingPacs);
}

/** POST /api/forwarding-pacs: adds a destination (validated by core's ZForwardingPacsInput). */
export async function createForwardingPacs(
  ctx: AppContext,
  auth: TAuth,
  input: z.output<typeof ZForwardingPacsInput>,
): Promise<TForwardingPacs> {
  assertMayManagePacs(auth);
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const centerId = await resolveCenterId(ctx.db, auth, input.centerId);
  const [row] = await ctx.db
    .insert(forwardingPacs)
    .values({
      centerId,
      name: input.name ?? null,
      aeTitle: input.aeTitle,
      host: input.ip,
      port: input.port,
      createdBy: auth.user.id,
    })
    .returning();
  if (!row) throw new Error('forwarding PACS insert returned no row');
  return toForwardingPacs(row);
}

/**
 * A destination the caller may use: of a center of the caller's group, and of the caller's own
 * center when the caller belongs to one. Otherwise 404 (existence is not told).
 */
export async function findUsablePacs(db: DbOrTx, auth: TAuth, pacsId: number): Promise<TForwardingPacsRow> {
  const [found] = await db
    .select({ pacs: forwardingPacs })
    .from(forwardingPacs)
    .innerJoin(centers, eq(centers.id, forwardingPacs.centerId))
    .where(and(eq(forwardingPacs.id, pacsId), eq(centers.groupId, auth.user.groupId)));
  if (!found || (auth.user.centerId !== null && found.pacs.centerId !== auth.user.centerId)) {
    throw new AppError('NOT_FOUND', FORWARDING_MESSAGES.pacsNotFound);
  }
  return found.pacs;
}

/** DELETE /api/forwarding-pacs/{id}. Sends already made keep their copied destination. */
export async function deleteForwardingPacs(ctx: AppContext, auth: TAuth, pacsId: number): Promise<void> {
  assertMayManagePacs(auth);
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const pacs = await findUsablePacs(ctx.db, auth, pacsId);
  await ctx.db.delete(forwardingPacs).where(eq(forwardingPacs.id, pacs.id));
}

/** POST /api/forwarding-pacs/{id}/echo: a C-ECHO from our AE title; a failure is an answer, not an error. */
export async function echoForwardingPacs(
  ctx: AppContext,
  auth: TAuth,
  pacsId: number,
  callingAet: string,
): Promise<TEchoResult> {
  await assertForwardingEnabled(ctx.db, auth.user.groupId);
  const pacs = await findUsablePacs(ctx.db, auth, pacsId);
  try {
    const result = await cEcho({
      host: pacs.host,
      port: pacs.port,
      callingAet,
      calledAet: pacs.aeTitle,
      timeoutMs: ECHO_TIMEOUT_MS,
    });
    const ok = result.status === 0;
    return {
      ok,
      elapsedMs: Math.round(result.elapsedMs),
      status: result.status,
      error: ok ? null : `C-ECHO status 0x${result.status.toString(16).padStart(4, '0')}`,
    };
  } catch (error) {
    if (!isDimseError(error)) throw error;
    return { ok: false, elapsedMs: null, status: null, error: error.message };
  }
}
