import {
  type TResolvedColumn,
  type TSavedColumn,
  type TTableKey,
  isPinnedColumn,
  toSavedColumns,
} from '@radflow/core';

/**
 * The column settings dialog's edits (spec-core §2 "Column choice per table … as ordered entries of
 * colName, visible, index", saved in USER_TABLE_PREFERENCES.tableColumnSettings). Which columns a
 * table offers and which group settings hide is core's resolveColumns; these only reorder, toggle and
 * build what is saved.
 */

const renumber = (columns: readonly TResolvedColumn[]): TResolvedColumn[] =>
  columns.map((c, index) => ({ ...c, index }));

/** Moves the column at `from` to `to` (both clamped to the list). */
export function moveColumn(columns: readonly TResolvedColumn[], from: number, to: number): TResolvedColumn[] {
  if (from < 0 || from >= columns.length) return renumber(columns);
  const target = Math.max(0, Math.min(columns.length - 1, to));
  const next = [...columns];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(target, 0, moved);
  return renumber(next);
}

export function setColumnVisible(
  columns: readonly TResolvedColumn[],
  colName: string,
  visible: boolean,
): TResolvedColumn[] {
  return renumber(columns.map((c) => (c.colName === colName ? { ...c, visible } : c)));
}

/**
 * The whole tableColumnSettings map to save: the other tables' choices as they are, this table's
 * replaced. (POST /setting/update/{section} replaces each field it is given, so the map is sent whole.)
 */
export function mergeTableColumnSettings(
  current: Readonly<Record<string, readonly TSavedColumn[]>> | null | undefined,
  tableKey: TTableKey,
  columns: readonly TResolvedColumn[],
): Record<string, TSavedColumn[]> {
  const out: Record<string, TSavedColumn[]> = {};
  for (const [key, list] of Object.entries(current ?? {})) out[key] = [...list];
  out[tableKey] = toSavedColumns(columns);
  return out;
}

/** The visible columns in their order. */
export function visibleColumns(columns: readonly TResolvedColumn[]): TResolvedColumn[] {
  return columns.filter((c) => c.visible);
}

/**
 * What the table draws: the visible columns in their order, the pinned ones (core PINNED_COLUMNS,
 * the row's actions) last whatever their saved place, since they are drawn stuck to the table's
 * right edge (issue 21 §6). The saved order itself is untouched.
 */
export function drawnColumns(columns: readonly TResolvedColumn[]): TResolvedColumn[] {
  const visible = visibleColumns(columns);
  return [
    ...visible.filter((c) => !isPinnedColumn(c.colName)),
    ...visible.filter((c) => isPinnedColumn(c.colName)),
  ];
}
