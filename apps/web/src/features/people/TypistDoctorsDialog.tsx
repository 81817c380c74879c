import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import type { TManagedUser } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { setTypistDoctors } from '../../api/people';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { PEOPLE_QUERY_ROOT, refusalText } from './people-form';

/** The doctors a typist types for (spec-core §6: the typist then picks one of these). */
export function TypistDoctorsDialog({
  typist,
  doctors,
  onClose,
}: {
  typist: TManagedUser;
  doctors: readonly TManagedUser[];
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<number[]>(typist.doctorIds);
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const mutation = useMutation({
    mutationFn: () => setTypistDoctors(typist.id, chosen),
    onSuccess: async () => {
      showInfo(`Doctors of ${typist.identifier} saved`);
      await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_ROOT });
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="typist-doctors-title">
      <DialogTitle id="typist-doctors-title">Doctors of {typist.identifier}</DialogTitle>
      <DialogContent>
        {mutation.isError && <Alert severity="error">{refusalText(mutation.error)}</Alert>}
        {doctors.length === 0 ? (
          <Typography>No active doctor in the group yet.</Typography>
        ) : (
          <FormGroup aria-label="Doctors">
            {doctors.map((d) => (
              <FormControlLabel
                key={d.id}
                control={
                  <Checkbox
                    checked={chosen.includes(d.id)}
                    onChange={(e) =>
                      setChosen((c) => (e.target.checked ? [...c, d.id] : c.filter((id) => id !== d.id)))
                    }
                  />
                }
                label={`${d.identifier} (${d.email})`}
              />
            ))}
          </FormGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          Cancel
        </Button>
        <Button variant="contained" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
