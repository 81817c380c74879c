import { AppError, MESSAGES, type TGroupFlags, groupFlags } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { scopeOfAuth } from './study-access.js';
import { type TLockedRow, lockVisibleRows } from './study-rows.js';

/**
 * The one way a study action changes rows: in one transaction, lock the rows the caller may see
 * (`SELECT … FOR UPDATE`), read the group's switches, then let the action check its rule against
 * the locked status, update and write its timeline rows. A row changed by someone else in the
 * meantime is therefore always checked as it is now, never as it was when the request arrived.
 */
export interface TLockedStudies {
  tx: Tx;
  rows: TLockedRow[];
  flags: TGroupFlags;
  now: Date;
}

/** Locks the rows `ids` (all visible, else 404 naming the missing ids) and runs `fn` under the lock. */
export async function withLockedStudies<T>(
  ctx: AppContext,
  auth: TAuth,
  ids: readonly number[],
  fn: (locked: TLockedStudies) => Promise<T>,
): Promise<T> {
  const unique = [...new Set(ids)];
  return ctx.db.transaction(async (tx) => {
    const rows = await lockVisibleRows(tx, scopeOfAuth(auth), unique);
    if (rows.length !== unique.length) {
      const found = new Set(rows.map((r) => r.report.id));
      const missing = unique.filter((id) => !found.has(id));
      throw new AppError('NOT_FOUND', MESSAGES.notFound, `id ${missing.join(', ')}`);
    }
    const flags = groupFlags(await loadGroupPreferences(tx, auth.user.groupId));
    return fn({ tx, rows, flags, now: ctx.now() });
  });
}

/** withLockedStudies for one row. */
export function withLockedStudy<T>(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  fn: (locked: Omit<TLockedStudies, 'rows'> & { row: TLockedRow }) => Promise<T>,
): Promise<T> {
  return withLockedStudies(ctx, auth, [id], ({ rows, ...rest }) => {
    const [row] = rows;
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
    return fn({ ...rest, row });
  });
}
