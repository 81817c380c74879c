import Alert from '@mui/material/Alert';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatTimestamp } from '../../../lib/format';
import { settingErrorText } from '../settings-api';
import { useGroupChanges } from './group-changes-api';
import { formatSettingValue, readableFieldName } from './group-fields';

export const NO_GROUP_CHANGES = 'No changes yet';

/** The group's latest setting changes, newest first: who, which field, from → to, when. */
export function GroupChangesList() {
  const changes = useGroupChanges();
  const headingId = 'group-changes-heading';

  return (
    <section aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        Recent changes
      </Typography>
      {changes.isError ? (
        <Alert severity="error">{settingErrorText(changes.error)}</Alert>
      ) : (
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>Who</TableCell>
              <TableCell>Setting</TableCell>
              <TableCell>Change</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.isPending ? (
              <TableRow>
                <TableCell colSpan={4} sx={{ color: 'text.secondary' }}>
                  Loading…
                </TableCell>
              </TableRow>
            ) : changes.data.content.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4} sx={{ color: 'text.secondary' }}>
                  {NO_GROUP_CHANGES}
                </TableCell>
              </TableRow>
            ) : (
              changes.data.content.map((c) => (
                <TableRow key={c.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(c.changedAt)}</TableCell>
                  <TableCell>{c.changedBy}</TableCell>
                  <TableCell title={readableFieldName(c.field)}>
                    {c.section}.{c.field}
                  </TableCell>
                  <TableCell>
                    {formatSettingValue(c.oldValue)} → {formatSettingValue(c.newValue)}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
