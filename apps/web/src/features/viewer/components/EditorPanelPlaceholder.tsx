import EditNoteIcon from '@mui/icons-material/EditNoteOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The report editor beside the images (`showEditor`): the Reporting issue fills this panel. */
export function EditorPanelPlaceholder() {
  return (
    <Box
      component="aside"
      aria-label="Report editor"
      sx={{
        width: 380,
        flex: 'none',
        borderLeft: 1,
        borderColor: 'divider',
        p: 2,
        display: 'flex',
        gap: 1.5,
      }}
    >
      <EditNoteIcon color="primary" />
      <Typography data-testid="editor-placeholder">
        Report editor — arrives with the Reporting issue.
      </Typography>
    </Box>
  );
}
