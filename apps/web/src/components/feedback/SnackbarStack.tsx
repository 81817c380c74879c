import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Portal from '@mui/material/Portal';
import type { TSnackbarKind } from './feedback-context';

export interface TSnack {
  id: number;
  kind: TSnackbarKind;
  text: string;
}

/**
 * The global snackbars (spec-core §8): bottom centre, newest last, at most 3 at once. Errors are
 * announced assertively (role alert), info politely (role status). Portalled to the body so an open
 * modal dialog (which hides the app root from assistive technology) does not hide them too.
 */
export function SnackbarStack({ snacks, onClose }: { snacks: TSnack[]; onClose: (id: number) => void }) {
  if (snacks.length === 0) return null;
  return (
    <Portal>
      <Box
        sx={{
          position: 'fixed',
          bottom: 24,
          left: '50%',
          transform: 'translateX(-50%)',
          zIndex: (t) => t.zIndex.snackbar,
          display: 'flex',
          flexDirection: 'column',
          gap: 1,
          alignItems: 'center',
          width: 'max-content',
          maxWidth: 'calc(100vw - 32px)',
        }}
      >
        {snacks.map((s) => (
          <Alert
            key={s.id}
            severity={s.kind === 'error' ? 'error' : 'info'}
            variant="filled"
            role={s.kind === 'error' ? 'alert' : 'status'}
            onClose={() => onClose(s.id)}
            sx={{ boxShadow: 6, minWidth: 280, alignItems: 'center' }}
          >
            {s.text}
          </Alert>
        ))}
      </Box>
    </Portal>
  );
}
