import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MESSAGES } from '@radflow/core';
import { useState } from 'react';

export const CHOOSE_DOCTOR_TITLE = 'Choose the doctor you are typing for';

/** spec-core §6: a typist first chooses a doctor from the doctor-role users. */
export function TypistDoctorGate({
  doctors,
  onChoose,
}: {
  doctors: readonly string[];
  onChoose(doctor: string): void;
}) {
  const [doctor, setDoctor] = useState('');
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 480 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {CHOOSE_DOCTOR_TITLE}
        </Typography>
        <TextField
          select
          label="Doctor"
          value={doctor}
          onChange={(e) => setDoctor(e.target.value)}
          helperText={doctors.length === 0 ? MESSAGES.noResultFound : undefined}
        >
          {doctors.map((d) => (
            <MenuItem key={d} value={d}>
              {d}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" disabled={!doctor} onClick={() => onChoose(doctor)}>
          Continue
        </Button>
      </Stack>
    </Paper>
  );
}
