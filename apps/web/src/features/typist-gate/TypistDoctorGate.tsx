import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REPORTING_MESSAGES } from '@radflow/core';
import { useState } from 'react';
import { useRoleUsers } from '../study-actions/use-study-actions';

/** Where the gate stands: the study list asks before it lists, the report editor before it opens. */
export type TTypistGatePlace = 'study-list' | 'report-editor';

/** The words of each place: the prompt and the button say where the choice leads. */
export const TYPIST_GATE_WORDS: Record<TTypistGatePlace, { prompt: string; action: string }> = {
  'study-list': { prompt: 'Choose the doctor you are typing for', action: 'Continue' },
  'report-editor': { prompt: REPORTING_MESSAGES.chooseDoctor, action: 'Start typing' },
};

export const NO_DOCTOR_MAPPED = 'No doctor is mapped to you yet. Please ask your admin.';

/**
 * spec-core §6 the typist gate, the one for both places: a typist first chooses the doctor they type
 * for, from the active doctor-role users of their user map (the list the assignor's doctor picker
 * uses, useRoleUsers). `suggested` (the row's lock or assignment in the editor) is offered first
 * when it is one of them. With no doctor mapped the typist is told whom to ask, and cannot go on.
 */
export function TypistDoctorGate({
  place,
  suggested = null,
  onChoose,
}: {
  place: TTypistGatePlace;
  suggested?: string | null;
  onChoose: (doctorEmail: string) => void;
}) {
  const words = TYPIST_GATE_WORDS[place];
  const { emails, isPending } = useRoleUsers('ROLE_DOCTOR');
  const initial = suggested && emails.includes(suggested) ? suggested : '';
  const [choice, setChoice] = useState<string>('');
  const value = choice || initial;

  return (
    <Paper variant="outlined" sx={{ p: 3, m: place === 'report-editor' ? 2 : 0, maxWidth: 480 }}>
      <Stack spacing={2} data-testid="typist-gate">
        <Typography variant="h6" component="h2">
          {words.prompt}
        </Typography>
        {!isPending && emails.length === 0 ? (
          <Alert severity="warning">{NO_DOCTOR_MAPPED}</Alert>
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
          {words.action}
        </Button>
      </Stack>
    </Paper>
  );
}
