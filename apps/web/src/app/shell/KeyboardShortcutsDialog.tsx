import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { VIEWER_EXTRA_SHORTCUTS, VIEWER_SHORTCUTS } from '../../features/viewer/viewer-shortcuts';

/** The keyboard-shortcut help of spec-core §2 (viewer shortcuts and window presets). */
export function KeyboardShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="shortcuts-title">
      <DialogTitle id="shortcuts-title">Keyboard Shortcut</DialogTitle>
      <DialogContent dividers>
        <Table aria-label="Viewer keyboard shortcuts">
          <TableHead>
            <TableRow>
              <TableCell>Key</TableCell>
              <TableCell>Action in the viewer</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {[...VIEWER_SHORTCUTS, ...VIEWER_EXTRA_SHORTCUTS].map((s) => (
              <TableRow key={s.action}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {s.keys.map((k) => (
                    <Box
                      key={k}
                      component="kbd"
                      sx={{
                        display: 'inline-block',
                        minWidth: 22,
                        px: 0.75,
                        mr: 0.5,
                        border: 1,
                        borderColor: 'divider',
                        borderRadius: 1,
                        textAlign: 'center',
                        fontFamily: 'monospace',
                        bgcolor: 'action.hover',
                      }}
                    >
                      {k}
                    </Box>
                  ))}
                </TableCell>
                <TableCell>{s.action}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
