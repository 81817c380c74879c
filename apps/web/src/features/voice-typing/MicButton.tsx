import MicIcon from '@mui/icons-material/Mic';
import MicNoneIcon from '@mui/icons-material/MicNoneOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { VOICE_MESSAGES, micButtonState } from '@radflow/core';
import type { Editor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { useDictation } from './useDictation';
import { VoiceTrialOverDialog } from './VoiceTrialOverDialog';

/**
 * The editor's mic button (spec-core §6; issue 7 §3): for typists and doctors with voice typing on
 * (UI preference enableVoiceTyping), hidden otherwise. Without the group's speech-to-text switch it
 * opens the 'Voice free trial is over' dialog; with it, it dictates into the editor at the cursor
 * (interim words shown beside the button while heard).
 */
export function MicButton({ editor }: { editor: Editor | null }) {
  const session = useSignedInSession();
  const { showInfoDialog, showError } = useFeedback();
  const [trialOverOpen, setTrialOverOpen] = useState(false);
  const dictation = useDictation(editor);
  const mode = micButtonState({
    roles: session.roles,
    enableVoiceTyping: session.preferences.UI_PREFERENCES.enableVoiceTyping,
    enableSpeechToText: session.flags.enableSpeechToText,
  });
  const failure = dictation.state.kind === 'failed' ? dictation.state.message : null;
  useEffect(() => {
    if (failure) showError(failure);
  }, [failure, showError]);

  if (mode === 'HIDDEN') return null;
  const listening = dictation.state.kind === 'listening';

  const onClick = () => {
    if (mode === 'TRIAL_OVER') {
      setTrialOverOpen(true);
      return;
    }
    if (listening) {
      dictation.stop();
      return;
    }
    if (!dictation.start())
      void showInfoDialog({ title: 'Voice typing', message: VOICE_MESSAGES.notSupported });
  };

  const label = listening ? 'Stop dictation' : 'Start dictation';
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Tooltip title={listening ? VOICE_MESSAGES.listening : label}>
        <IconButton
          size="small"
          aria-label={label}
          aria-pressed={listening}
          color={listening ? 'error' : 'default'}
          onClick={onClick}
          disabled={mode === 'READY' && !editor}
        >
          {listening ? <MicIcon fontSize="small" /> : <MicNoneIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      {listening && dictation.state.kind === 'listening' && dictation.state.interim && (
        <Typography
          variant="caption"
          color="textSecondary"
          aria-live="polite"
          aria-label="Heard so far"
          sx={{
            fontStyle: 'italic',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            maxWidth: 280,
          }}
        >
          {dictation.state.interim}
        </Typography>
      )}
      {trialOverOpen && <VoiceTrialOverDialog onClose={() => setTrialOverOpen(false)} />}
    </Stack>
  );
}
