import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import { type TResolvedColumn, type TSearchTableRequest, isPinnedColumn } from '@radflow/core';
import { RowCheckbox } from './RowCheckbox';
import { FILTER_KEYS, SORT_KEYS } from './study-columns-meta';
import { pinnedCellSx } from './table-layout';

export type TSelectAllState = 'checked' | 'indeterminate' | 'unchecked';

/** The accessible name of a column's filter box (the e2e stories find the boxes by it). */
export const filterLabel = (columnLabel: string) => `Filter ${columnLabel}`;

/**
 * The header of the study table (spec-core §2 Generic study table behaviour): a sort button per
 * sortable column with aria-sort, and under it a filter box per filterable column.
 */
export function StudyTableHead({
  columns,
  search,
  filterDraft,
  onSort,
  onFilterChange,
  selectAll,
  onSelectAll,
}: {
  columns: readonly TResolvedColumn[];
  search: TSearchTableRequest;
  filterDraft: Record<string, string>;
  onSort(sortKey: string): void;
  onFilterChange(filterKey: string, value: string): void;
  /** null: the table has no row checkboxes. */
  selectAll: TSelectAllState | null;
  onSelectAll(checked: boolean): void;
}) {
  const direction = search.sortOrder === 'ASC' ? 'asc' : 'desc';
  const ariaSort = search.sortOrder === 'ASC' ? 'ascending' : 'descending';
  return (
    <TableHead data-tour="filters">
      <TableRow>
        {selectAll !== null && (
          <TableCell padding="checkbox" rowSpan={2}>
            <RowCheckbox
              checked={selectAll === 'checked'}
              indeterminate={selectAll === 'indeterminate'}
              onChange={(e) => onSelectAll(e.target.checked)}
              slotProps={{ input: { 'aria-label': 'Select all rows' } }}
            />
          </TableCell>
        )}
        {columns.map((column) => {
          const sortKey = SORT_KEYS[column.colName];
          const active = sortKey !== undefined && search.orderingCriteria === sortKey;
          return (
            <TableCell
              key={column.colName}
              aria-sort={active ? ariaSort : sortKey ? 'none' : undefined}
              data-pinned={isPinnedColumn(column.colName) ? 'right' : undefined}
              sx={{
                // Labels may break between words (the theme's head cells do not): a header is no wider
                // than its column's content, so the default columns fit 1280 px (issue 21 §6).
                whiteSpace: 'normal',
                fontWeight: 600,
                lineHeight: 1.2,
                ...(isPinnedColumn(column.colName) ? { ...pinnedCellSx(), zIndex: 2 } : {}),
              }}
            >
              {sortKey ? (
                <TableSortLabel
                  active={active}
                  direction={active ? direction : 'desc'}
                  onClick={() => onSort(sortKey)}
                >
                  {column.label}
                </TableSortLabel>
              ) : (
                column.label
              )}
            </TableCell>
          );
        })}
      </TableRow>
      <TableRow>
        {columns.map((column) => {
          const filterKey = FILTER_KEYS[column.colName];
          return (
            <TableCell
              key={column.colName}
              sx={{ py: 0.5, ...(isPinnedColumn(column.colName) ? { ...pinnedCellSx(), zIndex: 2 } : {}) }}
            >
              {filterKey && (
                <TextField
                  size="small"
                  variant="standard"
                  placeholder="Search"
                  value={filterDraft[filterKey] ?? ''}
                  onChange={(e) => onFilterChange(filterKey, e.target.value)}
                  slotProps={{ htmlInput: { 'aria-label': filterLabel(column.label) } }}
                  fullWidth
                  // Narrow boxes: the column's content sets its width, not the box (issue 21 §6).
                  sx={{ minWidth: column.colName === 'id' ? 40 : 64 }}
                />
              )}
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
}
