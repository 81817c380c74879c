import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Portal from '@mui/material/Portal';
import Typography from '@mui/material/Typography';

/**
 * The loading indicator of spec-core §2 Shell. Not modal: a slow call never locks a clinician out of
 * the screen. Its 60 s self-hide lives in FeedbackProvider.startLoading.
 */
export function LoadingIndicator({ message }: { message: string }) {
  return (
    <Portal>
      <Paper
        role="status"
        aria-live="polite"
        elevation={8}
        sx={{
          position: 'fixed',
          top: 60,
          left: '50%',
          transform: 'translateX(-50%)',
          zIndex: (t) => t.zIndex.modal + 1,
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: 2,
          py: 1,
        }}
      >
        <CircularProgress size={16} />
        <Typography variant="body2">{message}</Typography>
      </Paper>
    </Portal>
  );
}
