import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { UserPicker } from './UserPicker';
import { useRoleUsers } from './use-study-actions';

/**
 * A dialog that picks one user of a role from the user map and submits the choice: assign a doctor
 * (one study or many) or an auditor. `confirmText`, when given, is asked before the call (spec-core
 * §4 confirms the auditor assignment). Clearing the choice unassigns.
 */
export function PickUserDialog({
  title,
  description,
  role,
  pickerLabel,
  submitLabel,
  initial,
  confirmText,
  doneText,
  submit,
  onClose,
  onDone,
}: {
  title: string;
  description?: string;
  role: string;
  pickerLabel: string;
  submitLabel: string;
  initial: string | null;
  confirmText?: string;
  doneText: (email: string | null) => string;
  submit: (email: string | null) => Promise<unknown>;
  onClose: () => void;
  onDone: () => void;
}) {
  const titleId = useId();
  const users = useRoleUsers(role);
  const { confirm, showError, showInfo } = useFeedback();
  const [choice, setChoice] = useState<string | null>(initial);
  const [busy, setBusy] = useState(false);

  const onSubmit = async () => {
    if (confirmText && !(await confirm({ message: confirmText }))) return;
    setBusy(true);
    try {
      await submit(choice);
      showInfo(doneText(choice));
      onDone();
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError)) showError(String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          {description && <DialogContentText>{description}</DialogContentText>}
          <UserPicker
            label={pickerLabel}
            options={users.emails}
            value={choice}
            onChange={setChoice}
            loading={users.isPending}
            disabled={busy}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void onSubmit()} disabled={busy || choice === initial}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
