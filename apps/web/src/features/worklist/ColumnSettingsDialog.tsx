import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { type TResolvedColumn, type TTableKey, resolveColumns } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { SESSION_QUERY_KEY, type TSession, useSignedInSession } from '../auth/session';
import { mergeTableColumnSettings, moveColumn, setColumnVisible } from './column-settings';
import { saveTableColumnSettings } from './study-list-api';

export const COLUMNS_SAVED = 'Columns saved';
/** Issue 21 §6: the actions column is drawn last, stuck to the table's right edge (core PINNED_COLUMNS). */
export const PINNED_NOTE = 'Actions always stay at the right edge of the table.';

/**
 * The column choice of one table (spec-core §2: "Column choice per table … as ordered entries of
 * colName, visible, index"), saved in the user's USER_TABLE_PREFERENCES. Owns its save, its snackbar
 * and the session cache update, so every table of that key redraws at once.
 */
export function ColumnSettingsDialog({
  tableKey,
  columns: initial,
  onClose,
}: {
  tableKey: TTableKey;
  columns: readonly TResolvedColumn[];
  onClose: () => void;
}) {
  const { roles, flags, preferences } = useSignedInSession();
  const [columns, setColumns] = useState<TResolvedColumn[]>([...initial]);
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();

  const save = useMutation({
    mutationFn: () =>
      saveTableColumnSettings(
        mergeTableColumnSettings(preferences.USER_TABLE_PREFERENCES.tableColumnSettings, tableKey, columns),
      ),
    onSuccess: (section) => {
      queryClient.setQueryData<TSession | null>(SESSION_QUERY_KEY, (s) =>
        s ? { ...s, preferences: { ...s.preferences, USER_TABLE_PREFERENCES: section } } : s,
      );
      showInfo(COLUMNS_SAVED);
      onClose();
    },
  });

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="column-settings-title">
      <DialogTitle id="column-settings-title">Column settings</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="textSecondary">
          {PINNED_NOTE}
        </Typography>
        <List dense aria-label="Columns">
          {columns.map((column, i) => (
            <ListItem
              key={column.colName}
              disableGutters
              secondaryAction={
                <>
                  <IconButton
                    size="small"
                    disabled={i === 0}
                    aria-label={`Move ${column.label} up`}
                    onClick={() => setColumns((c) => moveColumn(c, i, i - 1))}
                  >
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    disabled={i === columns.length - 1}
                    aria-label={`Move ${column.label} down`}
                    onClick={() => setColumns((c) => moveColumn(c, i, i + 1))}
                  >
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                </>
              }
            >
              <FormControlLabel
                control={
                  <Checkbox
                    size="small"
                    checked={column.visible}
                    onChange={(e) => setColumns((c) => setColumnVisible(c, column.colName, e.target.checked))}
                  />
                }
                label={column.label}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={() => setColumns(resolveColumns(tableKey, null, { roles, flags }))}>
          Reset
        </Button>
        <Button color="inherit" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="contained" disabled={save.isPending} onClick={() => save.mutate()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ColumnSettingsDialog;
