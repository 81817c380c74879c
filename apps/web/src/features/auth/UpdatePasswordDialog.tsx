import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ZUpdatePasswordRequest, passwordProblem, type TUpdatePasswordRequest } from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { updatePassword } from '../../api/identity';
import { useSnackbar } from '../../components/feedback/feedback-context';

type TErrors = Partial<Record<keyof TUpdatePasswordRequest, string>>;

const LABELS: Record<keyof TUpdatePasswordRequest, string> = {
  currentPassword: 'Current password',
  newPassword: 'New password',
};

/** Whose password it is: the core rule refuses one made of their e-mail address or name. */
export type TPasswordOwner = { email: string; identifier: string };

/**
 * Field errors in words a person reads, from the core schema (minimum length 8) and, given the owner,
 * the core password rule (not their e-mail or name). The server also refuses common passwords.
 */
export function validatePasswordChange(value: TUpdatePasswordRequest, owner?: TPasswordOwner): TErrors {
  const parsed = ZUpdatePasswordRequest.safeParse(value);
  if (parsed.success) {
    const problem = owner ? passwordProblem(value.newPassword, owner) : null;
    return problem ? { newPassword: problem } : {};
  }
  const errors: TErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof TUpdatePasswordRequest;
    if (errors[field]) continue;
    errors[field] =
      issue.code === 'too_small' && value[field] === ''
        ? `${LABELS[field]} is required`
        : issue.message.replace(field, LABELS[field]);
  }
  return errors;
}

/** Update Password from the account menu (spec-core §2 Shell, §7 POST /user-create/update-password). */
export function UpdatePasswordDialog({
  open,
  onClose,
  owner,
}: {
  open: boolean;
  onClose: () => void;
  owner?: TPasswordOwner;
}) {
  const [value, setValue] = useState<TUpdatePasswordRequest>({ currentPassword: '', newPassword: '' });
  const [errors, setErrors] = useState<TErrors>({});
  const { showInfo } = useSnackbar();
  const mutation = useMutation({
    mutationFn: updatePassword,
    onSuccess: () => {
      showInfo('Password updated');
      close();
    },
  });

  const close = () => {
    setValue({ currentPassword: '', newPassword: '' });
    setErrors({});
    mutation.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordChange(value, owner);
    setErrors(found);
    if (Object.keys(found).length === 0) mutation.mutate(value);
  };

  const field = (name: keyof TUpdatePasswordRequest, autoComplete: string, autoFocus = false) => (
    <TextField
      label={LABELS[name]}
      name={name}
      type="password"
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      value={value[name]}
      onChange={(e) => setValue((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name]}
    />
  );

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="update-password-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="update-password-title">Update Password</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {field('currentPassword', 'current-password', true)}
            {field('newPassword', 'new-password')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            Update
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
