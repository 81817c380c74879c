import {
  AppError,
  MESSAGES,
  REPORT_STATUSES,
  type TGroupFlags,
  type TReportStatus,
  groupFlags,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { scopeOfAuth } from '../dicomweb-retrieve/study-access.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { type TLockedRow, lockVisibleRows } from './study-actions.repository.js';

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

/**
 * Applies a core rule to the locked row's status: allowed → nothing; allowed on some other status →
 * 409 naming the current status (the row moved on, or the caller's screen is stale); allowed on no
 * status (the role or a group switch forbids it) → 403.
 */
export function guardStudyAction(
  action: string,
  status: TReportStatus,
  isAllowedOn: (status: TReportStatus) => boolean,
): void {
  if (isAllowedOn(status)) return;
  if (REPORT_STATUSES.some(isAllowedOn)) throw studyStatusConflict(action, status);
  throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED, action);
}

/** 409 naming the status the study is in. */
export function studyStatusConflict(action: string, status: TReportStatus, id?: number): AppError {
  const study = id === undefined ? 'the study' : `study ${id}`;
  return new AppError('CONFLICT', `Cannot ${action}: ${study} is ${status}`, 'status');
}
