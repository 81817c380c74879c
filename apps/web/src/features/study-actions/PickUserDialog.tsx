import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useServerCall } from '../../lib/server-call';
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
  const { confirm, showInfo } = useFeedback();
  const [choice, setChoice] = useState<string | null>(initial);
  const pick = useServerCall({
    mutationFn: (email: string | null) => submit(email),
    onSuccess: (_answer, email) => {
      showInfo(doneText(email));
      onDone();
      onClose();
    },
  });
  const busy = pick.isPending;

  const onSubmit = async () => {
    if (confirmText && !(await confirm({ message: confirmText }))) return;
    pick.mutate(choice);
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
