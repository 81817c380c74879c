import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatPersonName } from '@radflow/core';
import type { ReactNode } from 'react';
import { SERIES_PANEL_WIDTH, VIEWER_HEADER_HEIGHT, VIEWER_Z_INDEX } from './viewer-geometry';

/**
 * The viewer's page frame, shared by the loading page (ViewerSkeleton) and the workspace, so the
 * viewport the first image is drawn in has the same place and size in both: it covers the window
 * (fixed, above the shell's bar and drawer, below dialogs and snackbars), so the route keeps the
 * shell's guard without the shell taking reading space. Its header and series panel have fixed sizes
 * (viewer-geometry.ts), so the page's early preview can draw the first image in the right place
 * before this frame exists.
 */
export function ViewerFrame({
  testId,
  title,
  toolbar,
  onClose,
  aside,
  children,
}: {
  testId: string;
  title: string;
  toolbar: ReactNode;
  onClose: () => void;
  aside: ReactNode;
  /** The reading area, right of the series panel. */
  children: ReactNode;
}) {
  return (
    <Box
      data-testid={testId}
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: VIEWER_Z_INDEX,
        bgcolor: 'background.default',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          pl: 1.5,
          flex: 'none',
          height: VIEWER_HEADER_HEIGHT,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography sx={{ fontWeight: 600, whiteSpace: 'nowrap' }} noWrap>
          {title}
        </Typography>
        <Box sx={{ flex: 1, minWidth: 0 }}>{toolbar}</Box>
        <Tooltip title="Close viewer">
          <IconButton aria-label="Close viewer" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Tooltip>
      </Box>
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        <Box
          component="aside"
          sx={{
            width: SERIES_PANEL_WIDTH,
            flex: 'none',
            overflowY: 'auto',
            borderRight: 1,
            borderColor: 'divider',
          }}
        >
          {aside}
        </Box>
        {children}
      </Box>
    </Box>
  );
}

/** The window title line: patient and modalities. */
export const viewerTitle = (patientName: string, modalities: readonly string[]) =>
  `${formatPersonName(patientName)} · ${modalities.join('/')}`;
