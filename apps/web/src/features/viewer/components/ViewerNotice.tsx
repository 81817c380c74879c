import InfoIcon from '@mui/icons-material/InfoOutlined';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Why the study does not open, on a plain page (no canvas that could pass for an image). */
export function ViewerNotice({ text }: { text: string }) {
  return (
    <Stack sx={{ alignItems: 'center', justifyContent: 'center', minHeight: '50vh' }}>
      <Paper variant="outlined" sx={{ p: 3, display: 'flex', gap: 1.5, alignItems: 'center', maxWidth: 560 }}>
        <InfoIcon color="warning" />
        <Typography role="alert" data-testid="viewer-notice">
          {text}
        </Typography>
      </Paper>
    </Stack>
  );
}
