import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { shareFrameUrl, type TShareSeries } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { fetchShareSeries, shareFailureOf, shareSeriesQueryKey } from './share-page.api';

export const SHARE_VIEWER_LABELS = {
  region: 'Images',
  series: 'Series',
  previous: 'Previous image',
  next: 'Next image',
  none: 'No images to show',
  image: (n: number, of: number) => `Image ${n} of ${of}`,
} as const;

export const seriesLabel = (s: TShareSeries) =>
  [s.modality, s.seriesNumber !== null ? `#${s.seriesNumber}` : '', s.description].filter(Boolean).join(' ');

const NO_FRAMES: TShareSeries['frames'] = [];

const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(max, 0));

/**
 * The images of a shared study, read-only (issue 7 §5): a strip of series, one rendered frame at a
 * time; the wheel, the arrow keys and two buttons move through the frames, Home/End jump to the ends.
 * Window presets and tools are the diagnostic viewer's, not this page's.
 */
export function ShareImageViewer({ link }: { link: string }) {
  const series = useQuery({
    queryKey: shareSeriesQueryKey(link),
    queryFn: ({ signal }) => fetchShareSeries(link, signal),
  });
  const [seriesIndex, setSeriesIndex] = useState(0);
  const [frameIndex, setFrameIndex] = useState(0);
  const stage = useRef<HTMLDivElement | null>(null);

  const list = series.data ?? [];
  const current = list[seriesIndex];
  const frames = current?.frames ?? NO_FRAMES;
  const frame = frames[frameIndex];
  const move = (by: number) => setFrameIndex((i) => clamp(i + by, frames.length - 1));

  // React's wheel handler is passive; scrolling frames must not scroll the page as well.
  const framesCount = frames.length;
  useEffect(() => {
    const node = stage.current;
    if (!node) return;
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY === 0) return;
      event.preventDefault();
      setFrameIndex((i) => clamp(i + Math.sign(event.deltaY), framesCount - 1));
    };
    node.addEventListener('wheel', onWheel, { passive: false });
    return () => node.removeEventListener('wheel', onWheel);
  }, [framesCount]);

  // The next frames load while the current one is looked at, so scrolling does not wait.
  useEffect(() => {
    if (!current) return;
    for (const next of frames.slice(frameIndex + 1, frameIndex + 3)) {
      const image = new Image();
      image.src = shareFrameUrl(link, current.seriesUid, next.sopUid, next.frame);
    }
  }, [link, current, frames, frameIndex]);

  const onKeyDown = (event: KeyboardEvent) => {
    const steps: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    const step = steps[event.key];
    if (step !== undefined) move(step);
    else if (event.key === 'Home') setFrameIndex(0);
    else if (event.key === 'End') setFrameIndex(Math.max(frames.length - 1, 0));
    else return;
    event.preventDefault();
  };

  if (series.isPending) return <CircularProgress aria-label="Loading images" />;
  if (series.isError) {
    const failure = shareFailureOf(series.error);
    return <Alert severity="error">{'text' in failure ? failure.text : SHARE_VIEWER_LABELS.none}</Alert>;
  }
  if (list.length === 0 || !current || !frame)
    return <Alert severity="info">{SHARE_VIEWER_LABELS.none}</Alert>;

  return (
    <Stack component="section" aria-label={SHARE_VIEWER_LABELS.region} spacing={1.5}>
      <Stack
        direction="row"
        role="group"
        aria-label={SHARE_VIEWER_LABELS.series}
        spacing={1}
        sx={{ overflowX: 'auto', pb: 0.5 }}
      >
        {list.map((s, index) => (
          <Button
            key={s.seriesUid}
            size="small"
            variant={index === seriesIndex ? 'contained' : 'outlined'}
            aria-pressed={index === seriesIndex}
            onClick={() => {
              setSeriesIndex(index);
              setFrameIndex(0);
            }}
            sx={{ flexShrink: 0, textTransform: 'none' }}
          >
            {seriesLabel(s) || `Series ${index + 1}`} ({s.frames.length})
          </Button>
        ))}
      </Stack>
      <Box
        ref={stage}
        tabIndex={0}
        onKeyDown={onKeyDown}
        aria-label={SHARE_VIEWER_LABELS.image(frameIndex + 1, frames.length)}
        sx={{
          bgcolor: 'common.black',
          display: 'flex',
          justifyContent: 'center',
          alignItems: 'center',
          height: { xs: '60vh', md: '70vh' },
          outline: 'none',
          '&:focus-visible': { boxShadow: (theme) => `0 0 0 2px ${theme.palette.primary.main}` },
        }}
      >
        <Box
          component="img"
          src={shareFrameUrl(link, current.seriesUid, frame.sopUid, frame.frame)}
          alt={SHARE_VIEWER_LABELS.image(frameIndex + 1, frames.length)}
          draggable={false}
          sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', userSelect: 'none' }}
        />
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center' }}>
        <Button onClick={() => move(-1)} disabled={frameIndex === 0}>
          {SHARE_VIEWER_LABELS.previous}
        </Button>
        <Typography variant="body2" aria-live="polite">
          {frameIndex + 1} / {frames.length}
        </Typography>
        <Button onClick={() => move(1)} disabled={frameIndex >= frames.length - 1}>
          {SHARE_VIEWER_LABELS.next}
        </Button>
      </Stack>
    </Stack>
  );
}
