import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { toDataURL } from 'qrcode';
import { useEffect, useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { generateViewerQr } from '../share-page/share-page.api';
import type { TStudyDialogProps } from './dialog-props';
import { buildQrPrintHtml, type TQrLayout } from './qr-print';
import { shareUrlOf } from './share-url';
import { formatPersonName } from '@radflow/core';

/**
 * QR code print (spec-core §2: sticker or A4; the QR opens the share link). A row with a share link
 * gets its code drawn in the browser; a row without one asks the server (POST
 * /pdf/generate-viewer-qr, group enableSecureViewerQrCodeGeneration), which makes the link and
 * answers it with its QR. The chosen layout opens in a print window.
 */
export function QrCodePrintDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  const titleId = useId();
  const { showError } = useFeedback();
  const [layout, setLayout] = useState<TQrLayout>('sticker');
  const [drawn, setDrawn] = useState<{ url: string; dataUrl: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const url = row.shareLink ? shareUrlOf(row.shareLink) : null;
  // Idempotent on the server (the link is made once), so a query is safe to repeat.
  const generated = useQuery({
    queryKey: ['viewer-qr', row.id],
    queryFn: async () => {
      const answer = await generateViewerQr(row.id);
      onChanged();
      return { url: answer.url, dataUrl: answer.qrDataUrl };
    },
    enabled: url === null,
    retry: false,
    staleTime: Infinity,
  });
  const qr = url ? drawn : (generated.data ?? null);
  const isFailed = url ? failed : generated.isError;
  const failureText =
    (generated.error instanceof ApiError &&
      (generated.error.body as { errorDescription?: string } | null)?.errorDescription) ||
    'The QR code could not be drawn';

  useEffect(() => {
    if (!url) return;
    let live = true;
    toDataURL(url, { errorCorrectionLevel: 'M', margin: 1, width: 512 })
      .then((dataUrl) => live && setDrawn({ url, dataUrl }))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [url]);

  const print = () => {
    if (!qr) return;
    const win = window.open('', '_blank', 'width=800,height=900');
    if (!win) {
      showError('The print window was blocked; please allow pop-ups for this site');
      return;
    }
    win.document.write(
      buildQrPrintHtml(layout, qr.dataUrl, {
        patientName: formatPersonName(row.patientName),
        patientId: row.patientId,
        studyName: row.studyName,
        studyId: row.id,
        center: row.radiologyCenter,
      }),
    );
    win.document.close();
    win.focus();
    // Printing waits for the image to be decoded.
    win.onload = () => win.print();
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Print QR code · {row.id}</DialogTitle>
      <DialogContent>
        {!url && generated.isError ? (
          <Alert severity="error">{failureText}</Alert>
        ) : (
          <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
            {qr ? (
              <Box
                component="img"
                src={qr.dataUrl}
                alt={`QR code for ${qr.url}`}
                sx={{ width: 200, height: 200 }}
              />
            ) : isFailed ? (
              <Alert severity="error">The QR code could not be drawn</Alert>
            ) : (
              <CircularProgress aria-label="Loading" />
            )}
            <Typography variant="caption" sx={{ wordBreak: 'break-all' }}>
              {qr?.url ?? url}
            </Typography>
            <RadioGroup
              row
              aria-label="Layout"
              value={layout}
              onChange={(e) => setLayout(e.target.value as TQrLayout)}
            >
              <FormControlLabel value="sticker" control={<Radio />} label="Sticker" />
              <FormControlLabel value="a4" control={<Radio />} label="A4" />
            </RadioGroup>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          Close
        </Button>
        <Button variant="contained" onClick={print} disabled={!qr}>
          Print
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default QrCodePrintDialog;
