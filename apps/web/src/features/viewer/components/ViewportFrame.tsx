import Box from '@mui/material/Box';
import type { DragEvent, ReactNode } from 'react';
import { VIEWPORT_BORDER } from './viewer-geometry';

/**
 * The black, bordered box of one viewport (the stack panes and the three MPR views): the element
 * Cornerstone draws into fills it, overlays are its other children. The active one has the primary
 * border; a pointer press inside makes it active before the tools see the press.
 */
export function ViewportFrame({
  testId,
  active,
  onActivate,
  onElement,
  onDragOver,
  onDrop,
  children,
}: {
  testId: string;
  active: boolean;
  onActivate: () => void;
  onElement: (element: HTMLDivElement | null) => void;
  onDragOver?: (event: DragEvent) => void;
  onDrop?: (event: DragEvent) => void;
  children: ReactNode;
}) {
  return (
    <Box
      data-testid={testId}
      data-active={active}
      onPointerDownCapture={onActivate}
      onDragOver={onDragOver}
      onDrop={onDrop}
      sx={{
        position: 'relative',
        minWidth: 0,
        minHeight: 0,
        bgcolor: '#000',
        border: `${VIEWPORT_BORDER}px solid`,
        borderColor: active ? 'primary.main' : 'grey.900',
        overflow: 'hidden',
      }}
    >
      <Box
        ref={onElement}
        onContextMenu={(e) => e.preventDefault()}
        data-testid="viewport-element"
        sx={{ position: 'absolute', inset: 0 }}
      />
      {children}
    </Box>
  );
}
