import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { VOICE_MESSAGES, VOICE_PRICING_PATH } from '@radflow/core';
import { Link as RouterLink } from 'react-router';
import { SupportContact } from '../../components/SupportContact';
import { useSignedInSession } from '../auth/session';

/**
 * spec-core §6: without the speech-to-text setting the mic button shows 'Voice free trial is over'
 * with the support phone (the deployment's SUPPORT_PHONE; without one, the group administrator) and
 * the pricing page.
 */
export function VoiceTrialOverDialog({ onClose }: { onClose: () => void }) {
  const { user } = useSignedInSession();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{VOICE_MESSAGES.trialOver}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Typography>{VOICE_MESSAGES.trialOverBody}</Typography>
          <SupportContact support={user.support} />
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
