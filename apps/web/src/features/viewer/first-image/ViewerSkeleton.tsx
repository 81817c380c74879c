import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type TViewerContext, viewerCloseAction } from '@radflow/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ViewerFrame, viewerTitle } from '../components/ViewerFrame';
import { ViewerToolbar } from '../components/ViewerToolbar';
import { ViewportFrame } from '../components/ViewportFrame';
import { ViewportOverlay } from '../components/ViewportOverlay';
import { edgeLabels } from '../orientation';
import { displaySeriesName } from '../series-names';
import { FirstImageCanvas, firstImageReadout, useFirstImage } from './FirstImageCanvas';

const noop = () => undefined;

/**
 * The viewer page while its tools (Cornerstone, the workspace chunk) load: the same frame as the
 * workspace, the toolbar greyed out and inert, the series panel as placeholders, and in the first
 * viewport's place the first image with the overlay the viewport will show (VIEWER.md "Speed").
 * Nothing here takes tool input: it would be lost when the workspace replaces the page.
 */
export function ViewerSkeleton({ context, popup = false }: { context: TViewerContext; popup?: boolean }) {
  const navigate = useNavigate();
  const image = useFirstImage();
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const close = () => {
    if (viewerCloseAction(popup, Boolean(window.opener)) === 'close-window') window.close();
    else void navigate('/');
  };
  const seriesLine = image
    ? `Ser: ${image.series.seriesNumber ?? '—'} ${displaySeriesName(
        image.series.description,
        image.series.seriesNumber,
        context.seriesNames,
      )}`
    : '';
  return (
    <ViewerFrame
      testId="viewer-loading"
      title={viewerTitle(context.patientName, context.modalities)}
      onClose={close}
      toolbar={
        <Box inert sx={{ opacity: 0.45 }}>
          <ViewerToolbar
            tool="windowLevel"
            canAnnotate={context.canAnnotate}
            layout="1x1"
            isKeyImage={false}
            canMarkKeyImage={false}
            openInWeasis={context.openInWeasis}
            externalViewers={[]}
            onTool={noop}
            onPreset={noop}
            onView={noop}
            onLayout={noop}
            onToggleKeyImage={noop}
            onShortcuts={noop}
            onWeasis={noop}
            onExternalViewer={noop}
          />
        </Box>
      }
      aside={
        <Box sx={{ p: 1 }} aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={96} sx={{ mb: 1 }} />
          ))}
        </Box>
      }
    >
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          display: 'grid',
          gridTemplateRows: 'minmax(0, 1fr)',
          gridTemplateColumns: 'minmax(0, 1fr)',
          bgcolor: 'grey.900',
        }}
      >
        <ViewportFrame testId="viewport-preview" active onActivate={noop} onElement={setElement}>
          {image && <FirstImageCanvas image={image} />}
          {image && (
            <ViewportOverlay
              context={context}
              studyDate={context.studyDate}
              seriesLine={seriesLine}
              readout={firstImageReadout(image, element)}
              edges={edgeLabels(image.orientation, {})}
              isKeyImage={false}
            />
          )}
          <Typography
            role="status"
            sx={{
              position: 'absolute',
              left: '50%',
              bottom: 8,
              transform: 'translateX(-50%)',
              color: 'grey.500',
              fontSize: 12,
              pointerEvents: 'none',
            }}
          >
            Loading tools…
          </Typography>
        </ViewportFrame>
      </Box>
    </ViewerFrame>
  );
}
