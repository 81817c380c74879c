import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  MESSAGE_CENTER_REQUIRED,
  MESSAGE_SMS_NEEDS_MOBILE,
  ROLES,
  type TCenter,
  type TInvitationChannel,
  type TManagedUser,
  type TRole,
  grantableRoles,
  needsCenter,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { inviteUser, updateUser } from '../../api/people';
import { useSnackbar } from '../../components/feedback/feedback-context';
import {
  MESSAGE_EMAIL,
  MESSAGE_MOBILE,
  isValidEmail,
  isValidOptionalMobile,
  refusalText,
  roleLabel,
  PEOPLE_QUERY_ROOT,
} from './people-form';

export const USERS_QUERY_KEY = [...PEOPLE_QUERY_ROOT, 'users'] as const;

type TErrors = Partial<Record<'email' | 'identifier' | 'mobileNumber' | 'roles' | 'centerId', string>>;

/**
 * Invite a user (the server e-mails or texts them a link to set their password) or edit one. The
 * role choices are those the admin may give (core grantableRoles); a user's other roles stay as they
 * are. A center role asks for the center.
 */
export function UserDialog({
  user,
  actorRoles,
  centers,
  onClose,
}: {
  user: TManagedUser | null;
  actorRoles: readonly TRole[];
  centers: readonly TCenter[];
  onClose: () => void;
}) {
  const [email, setEmail] = useState(user?.email ?? '');
  const [identifier, setIdentifier] = useState(user?.identifier ?? '');
  const [mobileNumber, setMobileNumber] = useState(user?.mobileNumber ?? '');
  const [roles, setRoles] = useState<TRole[]>(user?.roles ?? []);
  const [centerId, setCenterId] = useState<number | ''>(user?.centerId ?? '');
  const [channel, setChannel] = useState<TInvitationChannel>('EMAIL');
  const [errors, setErrors] = useState<TErrors>({});
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const choices = ROLES.filter((r) => grantableRoles(actorRoles, ROLES).includes(r) || roles.includes(r));
  const withCenter = needsCenter(roles);

  const mutation = useMutation({
    mutationFn: () => {
      const fields = {
        identifier,
        mobileNumber: mobileNumber.trim() || null,
        roles,
        centerId: withCenter && centerId !== '' ? centerId : null,
      };
      return user ? updateUser(user.id, fields) : inviteUser({ ...fields, email, channel });
    },
    onSuccess: async (saved) => {
      showInfo(
        user
          ? `${saved.identifier} updated`
          : `Invitation sent to ${channel === 'SMS' ? saved.mobileNumber : saved.email}`,
      );
      await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_ROOT });
      onClose();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: TErrors = {};
    if (!user && !isValidEmail(email)) found.email = MESSAGE_EMAIL;
    if (!identifier.trim()) found.identifier = 'Name is required';
    if (!isValidOptionalMobile(mobileNumber)) found.mobileNumber = MESSAGE_MOBILE;
    else if (!user && channel === 'SMS' && !mobileNumber.trim())
      found.mobileNumber = MESSAGE_SMS_NEEDS_MOBILE;
    if (roles.length === 0) found.roles = 'Choose at least one role';
    if (withCenter && centerId === '') found.centerId = MESSAGE_CENTER_REQUIRED;
    setErrors(found);
    if (Object.keys(found).length === 0) mutation.mutate();
  };

  const toggle = (role: TRole, on: boolean) =>
    setRoles((current) => (on ? [...current, role] : current.filter((r) => r !== role)));

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="user-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="user-dialog-title">{user ? `Edit ${user.identifier}` : 'Invite user'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {mutation.isError && <Alert severity="error">{refusalText(mutation.error)}</Alert>}
            <TextField
              label="E-mail"
              name="email"
              value={email}
              disabled={user !== null}
              autoFocus={user === null}
              onChange={(e) => setEmail(e.target.value)}
              error={Boolean(errors.email)}
              helperText={errors.email ?? (user ? 'The e-mail is the sign-in and stays' : undefined)}
            />
            <TextField
              label="Name"
              name="identifier"
              value={identifier}
              onChange={(e) => setIdentifier(e.target.value)}
              error={Boolean(errors.identifier)}
              helperText={errors.identifier}
            />
            <TextField
              label="Mobile"
              name="mobileNumber"
              value={mobileNumber}
              onChange={(e) => setMobileNumber(e.target.value)}
              error={Boolean(errors.mobileNumber)}
              helperText={errors.mobileNumber}
            />
            <FormControl error={Boolean(errors.roles)} component="fieldset">
              <FormLabel component="legend">Roles</FormLabel>
              <FormGroup row aria-label="Roles">
                {choices.map((role) => (
                  <FormControlLabel
                    key={role}
                    sx={{ width: 200 }}
                    control={
                      <Checkbox
                        size="small"
                        checked={roles.includes(role)}
                        onChange={(e) => toggle(role, e.target.checked)}
                      />
                    }
                    label={roleLabel(role)}
                  />
                ))}
              </FormGroup>
              {errors.roles && <FormHelperText>{errors.roles}</FormHelperText>}
            </FormControl>
            {withCenter && (
              <TextField
                select
                label="Center"
                name="centerId"
                value={centerId}
                onChange={(e) => setCenterId(Number(e.target.value))}
                error={Boolean(errors.centerId)}
                helperText={errors.centerId}
              >
                {centers.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {!user && (
              <FormControl component="fieldset">
                <FormLabel component="legend">Send the invitation by</FormLabel>
                <RadioGroup
                  row
                  value={channel}
                  onChange={(e) => setChannel(e.target.value as TInvitationChannel)}
                >
                  <FormControlLabel value="EMAIL" control={<Radio size="small" />} label="E-mail" />
                  <FormControlLabel value="SMS" control={<Radio size="small" />} label="SMS" />
                </RadioGroup>
              </FormControl>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            {user ? 'Save' : 'Send invitation'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
