import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/** A centred spinner with a line of text, for the moments before a screen can show. */
export function FullPageMessage({ text, fullHeight = true }: { text: string; fullHeight?: boolean }) {
  return (
    <Box
      role="status"
      sx={{
        minHeight: fullHeight ? '100vh' : 240,
        flex: 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1.5,
      }}
    >
      <CircularProgress size={20} />
      <Typography color="textSecondary">{text}</Typography>
    </Box>
  );
}
