import { Component, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export const MESSAGE_SCREEN_FAILED = 'This screen could not be shown. Reload the page to try again.';

/**
 * The last catch for a screen that throws while rendering: a message and a way back instead of a
 * blank page. (The data router had a default error screen; the declarative router has none.)
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Box role="alert" sx={{ minHeight: '100vh', display: 'grid', placeContent: 'center', gap: 2 }}>
        <Typography>{MESSAGE_SCREEN_FAILED}</Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Box>
    );
  }
}
