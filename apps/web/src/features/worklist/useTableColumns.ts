import { type TResolvedColumn, type TTableKey, resolveColumns } from '@radflow/core';
import { useSignedInSession } from '../auth/session';

/**
 * The columns of a table for the signed-in user (core resolveColumns: the saved choice of
 * USER_TABLE_PREFERENCES.tableColumnSettings in its order, new columns after it, group-setting hides
 * removed).
 */
export function useTableColumns(tableKey: TTableKey): TResolvedColumn[] {
  const { roles, flags, preferences } = useSignedInSession();
  const saved = preferences.USER_TABLE_PREFERENCES.tableColumnSettings[tableKey];
  return resolveColumns(tableKey, saved, { roles, flags });
}
