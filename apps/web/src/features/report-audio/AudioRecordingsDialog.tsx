import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import StopIcon from '@mui/icons-material/Stop';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  AUDIO_ATTACHED_MESSAGE,
  AUDIO_MAX_BYTES,
  AUDIO_MESSAGES,
  canAddReportAudio,
  canDeleteReportAudio,
  type TReportAudio,
  type TStudyListRow,
  formatPersonName,
} from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import { useSignedInSession } from '../auth/session';
import { refusalText } from '../report-templates/template-rules';
import { audiosQueryKey, deleteAudio, fetchAudios, formatDuration, uploadAudio } from './report-audio.api';
import { useRecorder } from './useRecorder';

export interface TAudioRecordingsDialogProps {
  row: Pick<TStudyListRow, 'id' | 'status' | 'centerId' | 'patientName'>;
  onClose: () => void;
  /** Called after a note is attached or deleted. */
  onChanged?: () => void;
}

export const CONFIRM_DELETE_AUDIO = 'Delete this audio note? It cannot be brought back.';

/**
 * The audio recordings dialog (spec-core §2; issue 7 §3): record a note in the browser
 * (MediaRecorder), listen to it, attach it ('Audio attached'), play the study's notes and delete one
 * after a confirm. Who may add or delete: core canAddReportAudio / canDeleteReportAudio, the rules the
 * server answers 403 with.
 */
export function AudioRecordingsDialog({ row, onClose, onChanged }: TAudioRecordingsDialogProps) {
  const session = useSignedInSession();
  const { confirm, showError, showInfo } = useFeedback();
  const queryClient = useQueryClient();
  const recorder = useRecorder();
  const ruleInput = {
    roles: session.roles,
    row: { status: row.status, centerId: row.centerId ?? null },
    userCenterId: session.user.centerId ?? null,
  };
  const canAdd = canAddReportAudio(ruleInput);
  const audios = useQuery({
    queryKey: audiosQueryKey(row.id),
    queryFn: ({ signal }) => fetchAudios(row.id, signal),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: audiosQueryKey(row.id) });
    onChanged?.();
  };

  const upload = useMutation({
    mutationFn: async (take: { blob: Blob; durationMs: number }) => {
      // The server's cap, said before minutes of upload are spent on a take it will refuse.
      if (take.blob.size > AUDIO_MAX_BYTES) throw new Error(AUDIO_MESSAGES.tooLarge);
      return uploadAudio(row.id, take);
    },
    onSuccess: () => {
      showInfo(AUDIO_ATTACHED_MESSAGE);
      recorder.reset();
      refresh();
    },
  });

  const onDelete = async (audio: TReportAudio) => {
    const sure = await confirm({
      title: 'Delete audio note',
      message: CONFIRM_DELETE_AUDIO,
      confirmLabel: 'Delete',
    });
    if (!sure) return;
    try {
      await deleteAudio(row.id, audio.audioId);
      showInfo('Audio deleted');
    } catch (error) {
      showError(refusalText(error));
    }
    refresh();
  };

  const state = recorder.state;
  const busy = upload.isPending;

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Audio recordings</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography color="textSecondary">{formatPersonName(row.patientName)}</Typography>
          {canAdd && (
            <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              {state.kind === 'recording' ? (
                <Stack spacing={1}>
                  <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                    <Button
                      variant="contained"
                      color="error"
                      startIcon={<StopIcon />}
                      onClick={recorder.stop}
                    >
                      Stop
                    </Button>
                    <Typography aria-label="Elapsed time" role="timer">
                      {formatDuration(state.elapsedMs)}
                    </Typography>
                  </Stack>
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, Math.round(state.level * 100))}
                    aria-label="Microphone level"
                  />
                </Stack>
              ) : state.kind === 'recorded' ? (
                <Stack spacing={1}>
                  <Typography variant="subtitle2">
                    New recording ({formatDuration(state.recording.durationMs)})
                  </Typography>
                  <audio
                    controls
                    src={state.recording.url}
                    aria-label="New recording"
                    style={{ width: '100%' }}
                  />
                  {upload.error && <Alert severity="error">{refusalText(upload.error)}</Alert>}
                  <Stack direction="row" spacing={1}>
                    <Button variant="contained" loading={busy} onClick={() => upload.mutate(state.recording)}>
                      Attach
                    </Button>
                    <Button disabled={busy} onClick={recorder.reset}>
                      Discard
                    </Button>
                  </Stack>
                </Stack>
              ) : (
                <Stack spacing={1}>
                  <Box>
                    <Button
                      variant="outlined"
                      startIcon={<FiberManualRecordIcon color="error" />}
                      loading={state.kind === 'starting'}
                      onClick={() => void recorder.start()}
                    >
                      Record
                    </Button>
                  </Box>
                  {state.kind === 'failed' && <Alert severity="warning">{state.message}</Alert>}
                </Stack>
              )}
            </Box>
          )}
          {audios.isPending ? (
            <CircularProgress aria-label="Loading audio notes" size={24} />
          ) : audios.isError ? (
            <Alert severity="error">{refusalText(audios.error)}</Alert>
          ) : audios.data.length === 0 ? (
            <Typography color="textSecondary">No audio notes yet.</Typography>
          ) : (
            <List aria-label="Audio notes" dense>
              {audios.data.map((audio) => {
                const mayDelete = canDeleteReportAudio({
                  ...ruleInput,
                  isUploader: audio.createdBy === session.user.email,
                });
                return (
                  <ListItem
                    key={audio.audioId}
                    divider
                    secondaryAction={
                      mayDelete && (
                        <IconButton
                          edge="end"
                          aria-label={`Delete audio note ${audio.audioId}`}
                          onClick={() => void onDelete(audio)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      )
                    }
                  >
                    <Stack spacing={0.5} sx={{ width: '100%', pr: 5 }}>
                      <Typography variant="body2">
                        {audio.createdByName || audio.createdBy || 'Unknown'} ·{' '}
                        {formatTimestamp(audio.createdAt)}
                        {audio.durationMs !== null && ` · ${formatDuration(audio.durationMs)}`}
                      </Typography>
                      <audio
                        controls
                        preload="none"
                        src={audio.audioUrl}
                        aria-label={`Audio note ${audio.audioId}`}
                        style={{ width: '100%' }}
                      />
                    </Stack>
                  </ListItem>
                );
              })}
            </List>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default AudioRecordingsDialog;
