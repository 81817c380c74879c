import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TCenter } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { saveCenter } from '../../api/people';
import { useSnackbar } from '../../components/feedback/feedback-context';
import {
  MESSAGE_EMAIL,
  MESSAGE_MOBILE,
  aeTitlesProblem,
  isValidEmail,
  isValidOptionalMobile,
  parseAeTitles,
  refusalText,
  PEOPLE_QUERY_ROOT,
} from './people-form';

export const CENTERS_QUERY_KEY = [...PEOPLE_QUERY_ROOT, 'centers'] as const;

type TField = 'name' | 'email' | 'aeTitles' | 'region' | 'contactName' | 'contactMobile';

/** Add or edit a center: name, e-mail, the AE titles its modalities send with, its region, a contact. */
export function CenterDialog({ center, onClose }: { center: TCenter | null; onClose: () => void }) {
  const [value, setValue] = useState<Record<TField, string>>({
    name: center?.name ?? '',
    email: center?.email ?? '',
    aeTitles: center?.aeTitles.join(', ') ?? '',
    region: center?.region ?? '',
    contactName: center?.contactName ?? '',
    contactMobile: center?.contactMobile ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<TField, string>>>({});
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const mutation = useMutation({
    mutationFn: () =>
      saveCenter(center?.id ?? null, {
        name: value.name,
        email: value.email,
        aeTitles: parseAeTitles(value.aeTitles),
        contactName: value.contactName,
        contactMobile: value.contactMobile,
        // Sent when there is one to keep or to clear: a center without a region stays without.
        ...(value.region.trim() || center?.region ? { region: value.region } : {}),
      }),
    onSuccess: async (saved) => {
      showInfo(center ? `Center ${saved.name} updated` : `Center ${saved.name} added`);
      await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_ROOT });
      onClose();
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<TField, string>> = {};
    if (!value.name.trim()) found.name = 'Name is required';
    if (!isValidEmail(value.email)) found.email = MESSAGE_EMAIL;
    const aeProblem = aeTitlesProblem(parseAeTitles(value.aeTitles));
    if (aeProblem) found.aeTitles = aeProblem;
    if (!isValidOptionalMobile(value.contactMobile)) found.contactMobile = MESSAGE_MOBILE;
    setErrors(found);
    if (Object.keys(found).length === 0) mutation.mutate();
  };

  const field = (name: TField, label: string, extra: { helperText?: string; autoFocus?: boolean } = {}) => (
    <TextField
      label={label}
      name={name}
      value={value[name]}
      autoFocus={extra.autoFocus}
      onChange={(e) => setValue((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? extra.helperText}
    />
  );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="center-dialog-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="center-dialog-title">{center ? 'Edit center' : 'Add center'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {mutation.isError && <Alert severity="error">{refusalText(mutation.error)}</Alert>}
            {field('name', 'Name', { autoFocus: true })}
            {field('email', 'E-mail')}
            {field('aeTitles', 'DICOM AE titles', {
              helperText: 'The calling AE titles of the center’s modalities, separated by commas',
            })}
            {field('region', 'Region', {
              helperText: 'The region dashboard groups the centers by it (e.g. Bihar, Tripura, West Bengal)',
            })}
            {field('contactName', 'Contact name')}
            {field('contactMobile', 'Contact mobile')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={mutation.isPending}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
