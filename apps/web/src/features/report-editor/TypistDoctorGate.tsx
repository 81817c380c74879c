import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REPORTING_MESSAGES } from '@radflow/core';
import { useState } from 'react';
import { useRoleUsers } from '../study-actions/use-study-actions';

/**
 * spec-core §6 the typist gate: a typist first chooses the doctor they type for, from the doctor-role
 * users of their user map (the list the assignor's doctor picker uses). The row's doctor (its lock or
 * assignment) is offered first when it is one of them.
 */
export function TypistDoctorGate({
  suggested,
  onChoose,
}: {
  suggested: string | null;
  onChoose: (doctorEmail: string) => void;
}) {
  const { emails, isPending } = useRoleUsers('ROLE_DOCTOR');
  const initial = suggested && emails.includes(suggested) ? suggested : '';
  const [choice, setChoice] = useState<string>('');
  const value = choice || initial;

  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 480 }} data-testid="typist-gate">
      <Typography>{REPORTING_MESSAGES.chooseDoctor}</Typography>
      {!isPending && emails.length === 0 ? (
        <Alert severity="warning">No doctor is mapped to you yet. Please ask your admin.</Alert>
      ) : (
        <TextField
          select
          label="Doctor"
          value={value}
          onChange={(e) => setChoice(e.target.value)}
          disabled={isPending}
        >
          {emails.map((email) => (
            <MenuItem key={email} value={email}>
              {email}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Button
        variant="contained"
        disabled={!value}
        onClick={() => onChoose(value)}
        sx={{ alignSelf: 'start' }}
      >
        Start typing
      </Button>
    </Stack>
  );
}
