import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { THybridStudy } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type WheelEvent } from 'react';
import { dicomwebUrls, seriesSummaries } from '../viewer/data-source/dicomweb-reads';
import { renderedFrameUrl, stackOf, viewportOf } from '../viewer/light/light-stack';
import type { RouterClient } from './router-client';

export const OFFLINE_IMAGES_LABELS = {
  title: 'Images',
  series: 'Series',
  previous: 'Previous image',
  next: 'Next image',
  none: 'The router holds no images of this study',
  image: (n: number, of: number) => `Image ${n} of ${of}`,
} as const;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The stage's pixels: the dialog's width on this screen (VIEWER.md "Light viewer" rounding). */
const STAGE_CSS = 512;

/**
 * The images of a study the router holds (apps/router HYBRID.md "The viewer offline"): the light
 * viewer's stack (its series order, stack order and rendered-frame URLs, viewer/light) read from the
 * router's DICOMweb with the router session. Each frame is fetched with the session and shown from
 * memory: an `<img>` cannot send the bearer token, and from the cloud's page the router's viewer
 * cookie (HYBRID.md) would be a third-party one.
 */
export function OfflineImagesDialog({
  client,
  study,
  onClose,
}: {
  client: RouterClient;
  study: THybridStudy;
  onClose: () => void;
}) {
  const uid = study.studyInstanceUid;
  const urls = dicomwebUrls(client.baseUrl);
  const seriesList = useQuery({
    queryKey: ['offline-images', client.baseUrl, uid, 'series'],
    queryFn: async () => seriesSummaries(await client.dicomJson(urls.seriesList(uid))),
  });
  const [seriesUid, setSeriesUid] = useState<string | null>(null);
  const list = seriesList.data ?? [];
  const current = list.find((s) => s.seriesInstanceUid === seriesUid) ?? list[0];
  const stack = useQuery({
    queryKey: ['offline-images', client.baseUrl, uid, 'instances', current?.seriesInstanceUid],
    queryFn: async () =>
      stackOf(await client.dicomJson(urls.instances(uid, current?.seriesInstanceUid ?? ''))),
    enabled: current !== undefined,
  });
  const frames = stack.data ?? [];
  const [index, setIndex] = useState(0);
  const move = (by: number) => setIndex((i) => Math.min(Math.max(i + by, 0), Math.max(frames.length - 1, 0)));
  const viewport = viewportOf(STAGE_CSS, STAGE_CSS, window.devicePixelRatio || 1);
  const image = frames[index];
  const src =
    image && current
      ? renderedFrameUrl(client.baseUrl, uid, current.seriesInstanceUid, image, viewport, null)
      : null;
  const frame = useQuery({
    queryKey: ['offline-images', 'frame', src],
    queryFn: () => client.image(src ?? ''),
    enabled: src !== null,
    staleTime: Infinity,
  });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!frame.data) return undefined;
    const url = URL.createObjectURL(frame.data);
    setObjectUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [frame.data]);

  const onWheel = (event: WheelEvent) => move(event.deltaY > 0 ? 1 : -1);
  const failure = seriesList.error ?? stack.error ?? frame.error;
  const empty = seriesList.isSuccess && list.length === 0;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="offline-images-title">
      <DialogTitle id="offline-images-title">
        {OFFLINE_IMAGES_LABELS.title}: {study.patientName ?? uid} — {study.studyDescription ?? ''}
      </DialogTitle>
      <DialogContent>
        {(seriesList.isFetching || stack.isFetching || frame.isFetching) && (
          <LinearProgress aria-label="Loading" />
        )}
        {failure && <Alert severity="error">{errorText(failure)}</Alert>}
        {empty && <Alert severity="info">{OFFLINE_IMAGES_LABELS.none}</Alert>}
        {list.length > 1 && (
          <Stack
            direction="row"
            spacing={1}
            sx={{ mb: 1, flexWrap: 'wrap' }}
            aria-label={OFFLINE_IMAGES_LABELS.series}
          >
            {list.map((s) => (
              <Button
                key={s.seriesInstanceUid}
                size="small"
                variant={s.seriesInstanceUid === current?.seriesInstanceUid ? 'contained' : 'outlined'}
                onClick={() => {
                  setSeriesUid(s.seriesInstanceUid);
                  setIndex(0);
                }}
              >
                {s.description || `${s.modality} ${s.seriesNumber ?? ''}`.trim()} ({s.instanceCount})
              </Button>
            ))}
          </Stack>
        )}
        <Box
          onWheel={onWheel}
          sx={{
            bgcolor: 'common.black',
            height: STAGE_CSS,
            maxHeight: '60vh',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          {objectUrl && frames.length > 0 && (
            <img
              src={objectUrl}
              alt={OFFLINE_IMAGES_LABELS.image(index + 1, frames.length)}
              style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          )}
        </Box>
        {frames.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
            <Button onClick={() => move(-1)} disabled={index === 0}>
              {OFFLINE_IMAGES_LABELS.previous}
            </Button>
            <Typography>{OFFLINE_IMAGES_LABELS.image(index + 1, frames.length)}</Typography>
            <Button onClick={() => move(1)} disabled={index >= frames.length - 1}>
              {OFFLINE_IMAGES_LABELS.next}
            </Button>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
