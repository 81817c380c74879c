import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import {
  type TResolvedColumn,
  type TRowColour,
  type TSearchTableRequest,
  type TStudyListPage,
  type TStudyListRow,
  WORKLIST_MESSAGES,
  isPinnedColumn,
} from '@radflow/core';
import type { MouseEvent, ReactNode } from 'react';
import { PagedTablePagination } from '../../components/table/TableParts';
import { RowCheckbox } from './RowCheckbox';
import { isAssignedTo, renderStudyCell } from './study-cells';
import { COMPACT_CELLS, pinnedCellSx } from './table-layout';
import { StudyTableHead, type TSelectAllState } from './StudyTableHead';

/** spec-core §2 Generic study table behaviour: the three lines of the empty state. */
export function StudyEmptyRow({ colSpan }: { colSpan: number }) {
  const [title, ...hints] = WORKLIST_MESSAGES.emptyState;
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ textAlign: 'center', py: 5 }}>
        <Typography variant="h6" component="p">
          {title}
        </Typography>
        {hints.map((hint) => (
          <Typography key={hint} variant="body2" color="textSecondary">
            {hint}
          </Typography>
        ))}
      </TableCell>
    </TableRow>
  );
}

/** A user's colour may be any CSS colour; a tint keeps text readable on the dark theme. */
function tint(colour: string): string {
  try {
    return alpha(colour, 0.28);
  } catch {
    return colour;
  }
}

/** Tri-state select-all over the rows of the page (spec-core §2). */
export function selectAllState(rowIds: readonly number[], selected: ReadonlySet<number>): TSelectAllState {
  const chosen = rowIds.filter((id) => selected.has(id)).length;
  if (chosen === 0) return 'unchecked';
  return chosen === rowIds.length ? 'checked' : 'indeterminate';
}

export interface TStudyTableProps {
  ariaLabel: string;
  columns: readonly TResolvedColumn[];
  page: TStudyListPage | undefined;
  isFetching: boolean;
  /** The first answer has not come yet (no empty state while waiting). */
  isPending: boolean;
  search: TSearchTableRequest;
  filterDraft: Record<string, string>;
  onSort(sortKey: string): void;
  onFilterChange(filterKey: string, value: string): void;
  onPageChange(page: number): void;
  onSizeChange(size: number): void;
  rowColour(row: TStudyListRow): TRowColour | null;
  renderActions?(row: TStudyListRow): ReactNode;
  renderUploadStudy?(row: TStudyListRow): ReactNode;
  /** The audit column with its approve/reject switch (spec-core §2); absent: the verdict as text. */
  renderAuditApproval?(row: TStudyListRow): ReactNode;
  /** Who was last active on the row in the viewer (the list asks separately: useActiveInViewer). */
  renderActiveInViewer?(row: TStudyListRow): ReactNode;
  /** Row checkboxes (spec-core §2 "Optional row checkboxes"); absent: none. */
  selection?: { selected: ReadonlySet<number>; onChange(next: Set<number>): void };
  /** Whose work the list shows (the user's e-mail, or a typist's doctor's): those studies are marked (issue 21 §5). */
  me?: string;
  /** The mark's text: 'You' unless given ('Your doctor' for a typist). */
  meLabel?: string;
  /** A double click on the row, outside its controls (issue 21 §6). */
  onRowDoubleClick?(row: TStudyListRow): void;
}

/** A double click on one of these belongs to it, not to the row. */
const CONTROLS =
  'button, a, input, textarea, select, label, [role="button"], [role="checkbox"], [role="switch"]';

/**
 * The study table every study list draws (spec-core §2 Generic study table behaviour and Study
 * table columns): sortable headers with filter boxes, optional row checkboxes with a tri-state
 * select-all, row colours, a loading bar, the empty state and paging with sizes 20 and 50.
 */
export function StudyTable(props: TStudyTableProps) {
  const { columns, page, selection } = props;
  const rows = page?.content ?? [];
  const rowIds = rows.map((r) => r.id);
  const colSpan = columns.length + (selection ? 1 : 0);

  const selectAll = (checked: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const id of rowIds) {
      if (checked) next.add(id);
      else next.delete(id);
    }
    selection.onChange(next);
  };
  const toggleRow = (id: number, checked: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (checked) next.add(id);
    else next.delete(id);
    selection.onChange(next);
  };

  const cell = (column: TResolvedColumn, row: TStudyListRow): ReactNode => {
    if (column.colName === 'actions') return props.renderActions?.(row) ?? null;
    if (column.colName === 'uploadStudy') return props.renderUploadStudy?.(row) ?? null;
    if (column.colName === 'activeInViewer') return props.renderActiveInViewer?.(row) ?? null;
    if (column.colName === 'auditApproval' && props.renderAuditApproval)
      return props.renderAuditApproval(row);
    return renderStudyCell(column.colName, row, props.me, props.meLabel);
  };

  return (
    <Paper variant="outlined" data-tour="worklist">
      <Box sx={{ height: 2 }}>
        {props.isFetching && <LinearProgress sx={{ height: 2 }} aria-label="Loading studies" />}
      </Box>
      <TableContainer>
        <Table size="small" aria-label={props.ariaLabel} aria-busy={props.isFetching} sx={COMPACT_CELLS}>
          <StudyTableHead
            columns={columns}
            search={props.search}
            filterDraft={props.filterDraft}
            onSort={props.onSort}
            onFilterChange={props.onFilterChange}
            selectAll={selection ? selectAllState(rowIds, selection.selected) : null}
            onSelectAll={selectAll}
          />
          <TableBody>
            {rows.map((row) => {
              const colour = props.rowColour(row);
              const tinted = colour ? tint(colour.colour) : undefined;
              const onDoubleClick = props.onRowDoubleClick;
              return (
                <TableRow
                  key={row.id}
                  hover
                  data-testid={`study-row-${row.id}`}
                  data-row-colour={colour?.key}
                  data-assigned-to-me={isAssignedTo(row, props.me) || undefined}
                  selected={selection?.selected.has(row.id) ?? false}
                  sx={tinted ? { bgcolor: tinted } : undefined}
                  onDoubleClick={
                    onDoubleClick &&
                    ((event: MouseEvent<HTMLTableRowElement>) => {
                      if ((event.target as Element).closest(CONTROLS)) return;
                      onDoubleClick(row);
                    })
                  }
                >
                  {selection && (
                    <TableCell padding="checkbox">
                      <RowCheckbox
                        checked={selection.selected.has(row.id)}
                        onChange={(e) => toggleRow(row.id, e.target.checked)}
                        slotProps={{ input: { 'aria-label': `Select study ${row.id}` } }}
                      />
                    </TableCell>
                  )}
                  {columns.map((column) =>
                    isPinnedColumn(column.colName) ? (
                      <TableCell key={column.colName} data-pinned="right" sx={pinnedCellSx(tinted)}>
                        {cell(column, row)}
                      </TableCell>
                    ) : (
                      <TableCell key={column.colName}>{cell(column, row)}</TableCell>
                    ),
                  )}
                </TableRow>
              );
            })}
            {!props.isPending && rows.length === 0 && <StudyEmptyRow colSpan={colSpan} />}
          </TableBody>
        </Table>
      </TableContainer>
      <PagedTablePagination
        count={page?.totalElements ?? 0}
        page={props.search.page}
        size={props.search.size}
        onPageChange={props.onPageChange}
        onSizeChange={props.onSizeChange}
      />
    </Paper>
  );
}
