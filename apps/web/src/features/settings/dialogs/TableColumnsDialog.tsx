import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { TTableKey } from '@radflow/core';
import { useState } from 'react';
import { useSignedInSession } from '../../auth/session';
import { ColumnSettingsDialog } from '../../worklist/ColumnSettingsDialog';
import { useTableColumns } from '../../worklist/useTableColumns';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { TABLE_KEY_LABELS, tableKeysOfUser } from '../table-keys';

/**
 * Table Columns: pick one of the user's study tables, then the worklist's own column dialog (it
 * saves USER_TABLE_PREFERENCES for that key and closes).
 */
export default function TableColumnsDialog({ onClose }: { onClose: () => void }) {
  const session = useSignedInSession();
  const [tableKey, setTableKey] = useState<TTableKey | null>(null);
  if (tableKey) return <ColumnsOf tableKey={tableKey} onClose={onClose} />;
  const keys = tableKeysOfUser(session);
  return (
    <SettingDialogFrame entry="TABLE_COLUMNS" onClose={onClose} maxWidth="xs">
      {keys.length === 0 ? (
        <Typography color="textSecondary">You have no study tables whose columns can be chosen.</Typography>
      ) : (
        <List aria-label="Tables">
          {keys.map((key) => (
            <ListItemButton key={key} onClick={() => setTableKey(key)}>
              <ListItemText primary={TABLE_KEY_LABELS[key]} />
            </ListItemButton>
          ))}
        </List>
      )}
    </SettingDialogFrame>
  );
}

function ColumnsOf({ tableKey, onClose }: { tableKey: TTableKey; onClose: () => void }) {
  const columns = useTableColumns(tableKey);
  return <ColumnSettingsDialog tableKey={tableKey} columns={columns} onClose={onClose} />;
}
