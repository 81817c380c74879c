import StarIcon from '@mui/icons-material/Star';
import Box from '@mui/material/Box';
import type { TViewerContext } from '@radflow/core';
import type { ReactNode } from 'react';
import type { TViewportReadout } from '../engine/viewport-state';
import type { TEdgeLabels } from '../orientation';
import { formatPersonName, formatSlice, formatStudyDate, formatWindow, formatZoom } from '../overlay-text';

/** Text over the image: light, shadowed, never in the way of the pointer. */
export const OVERLAY_TEXT = {
  position: 'absolute',
  zIndex: 1,
  color: '#e8e8e8',
  fontSize: 12,
  lineHeight: 1.35,
  textShadow: '0 0 3px #000, 0 0 2px #000',
  pointerEvents: 'none',
  whiteSpace: 'nowrap',
} as const;

const corner = (position: Record<string, number>): object => ({ ...OVERLAY_TEXT, ...position });

/** The orientation letters at the middle of each edge (stack panes and MPR views). */
export function OrientationEdges({ edges }: { edges: Partial<TEdgeLabels> }) {
  const edge = (position: Record<string, number | string>, text: string | undefined) => (
    <Box sx={{ ...OVERLAY_TEXT, ...position, fontWeight: 600 }}>{text}</Box>
  );
  return (
    <>
      {edge({ top: 4, left: '50%', transform: 'translateX(-50%)' }, edges.top)}
      {edge({ bottom: 4, left: '50%', transform: 'translateX(-50%)' }, edges.bottom)}
      {edge({ left: 6, top: '50%', transform: 'translateY(-50%)' }, edges.left)}
      {edge({ right: 6, top: '50%', transform: 'translateY(-50%)' }, edges.right)}
    </>
  );
}

const Line = ({ children }: { children: ReactNode }) => <div>{children}</div>;

/**
 * The four corners of a viewport (issue 5 §2): patient, study, series with slice n/N, window and
 * zoom; the orientation letters at the edges; a star on a key image.
 */
export function ViewportOverlay({
  context,
  studyDate,
  seriesLine,
  readout,
  edges,
  isKeyImage,
}: {
  context: TViewerContext;
  studyDate: string;
  seriesLine: string;
  readout: TViewportReadout | null;
  edges: TEdgeLabels | null;
  isKeyImage: boolean;
}) {
  const sexAge = [context.patientSex, context.patientAge].filter(Boolean).join(' / ');
  return (
    <>
      <Box sx={corner({ top: 4, left: 6 })} data-testid="overlay-patient">
        <Line>{formatPersonName(context.patientName)}</Line>
        <Line>ID: {context.patientId || '—'}</Line>
        {sexAge && <Line>{sexAge}</Line>}
      </Box>
      <Box sx={{ ...corner({ top: 4, right: 6 }), textAlign: 'right' }} data-testid="overlay-study">
        <Line>{formatStudyDate(studyDate)}</Line>
        <Line>{context.studyDescription}</Line>
      </Box>
      <Box sx={corner({ bottom: 4, left: 6 })} data-testid="overlay-series">
        <Line>{seriesLine}</Line>
        <Line>{readout ? formatSlice(readout.index, readout.total) : ''}</Line>
      </Box>
      <Box sx={{ ...corner({ bottom: 4, right: 6 }), textAlign: 'right' }} data-testid="overlay-window">
        {isKeyImage && (
          <Line>
            <StarIcon sx={{ fontSize: 14, verticalAlign: 'middle', color: 'warning.main' }} /> Key image
          </Line>
        )}
        <Line>{readout ? formatWindow(readout.windowWidth, readout.windowLevel) : ''}</Line>
        <Line>{readout ? formatZoom(readout.zoom) : ''}</Line>
      </Box>
      {edges && <OrientationEdges edges={edges} />}
    </>
  );
}
