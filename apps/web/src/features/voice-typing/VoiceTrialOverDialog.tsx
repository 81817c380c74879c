import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { VOICE_MESSAGES, VOICE_PRICING_PATH, VOICE_SUPPORT_PHONE } from '@radflow/core';
import { Link as RouterLink } from 'react-router';

/**
 * spec-core §6: without the speech-to-text setting the mic button shows 'Voice free trial is over'
 * with the support phone and the pricing page.
 */
export function VoiceTrialOverDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{VOICE_MESSAGES.trialOver}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Typography>{VOICE_MESSAGES.trialOverBody}</Typography>
          <Typography>
            Support phone:{' '}
            <Link href={`tel:${VOICE_SUPPORT_PHONE.replace(/\s/g, '')}`}>{VOICE_SUPPORT_PHONE}</Link>
          </Typography>
          <Typography>
            <Link component={RouterLink} to={VOICE_PRICING_PATH} target="_blank" rel="noopener">
              See pricing
            </Link>
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
