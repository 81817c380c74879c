import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  DEPARTMENT_NONE_OPTION,
  REFERRING_DOCTOR_MESSAGES as M,
  type TReferringDoctor,
  ZReferringDoctorInput,
  ZReferringDoctorUpdate,
  referringDoctorStatusConfirm,
} from '@radflow/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConfirm, useLoading, useSnackbar } from '../../components/feedback/feedback-context';
import { LAB_PREFERENCES_QUERY_KEY, fetchLabPreferences } from '../../api/lab';
import { LAB_DOCTORS_QUERY_ROOT, saveReferringDoctor } from './lab-patients-api';
import { fieldErrors, refusalText } from './lab-form';

type TField = 'name' | 'mobileNumber' | 'department' | 'active';

/**
 * Create or edit a referring doctor (spec-lab §4, §5): a new doctor is active and cannot be made
 * inactive here ('Refering doctor cannot be deactivated during creation.'); the department is one
 * of the lab's referring doctor departments or None, and is fixed once set; creating asks first.
 */
export function ReferringDoctorDialog({
  doctor,
  onClose,
  onSaved,
}: {
  doctor: TReferringDoctor | null;
  onClose: () => void;
  onSaved?: (doctor: TReferringDoctor) => void;
}) {
  const [name, setName] = useState(doctor?.name ?? '');
  const [mobileNumber, setMobileNumber] = useState(doctor?.mobileNumber ?? '');
  const [department, setDepartment] = useState(doctor?.department ?? DEPARTMENT_NONE_OPTION);
  const [active, setActive] = useState(doctor?.active ?? true);
  const [errors, setErrors] = useState<Partial<Record<TField, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const startLoading = useLoading();
  const { showInfo } = useSnackbar();
  const preferences = useQuery({
    queryKey: LAB_PREFERENCES_QUERY_KEY,
    queryFn: ({ signal }) => fetchLabPreferences(signal),
  });
  const departments = preferences.data?.LAB_DEPARTMENTS.referringDoctorDepartmentList ?? [];
  const departmentFixed = doctor?.department != null;

  const onActiveChange = async (next: boolean) => {
    if (!doctor) {
      // spec-lab §4: created active; the switch stays on and says why.
      if (!next) setErrors((e) => ({ ...e, active: M.cannotDeactivateAtCreation }));
      return;
    }
    if (await confirm({ message: referringDoctorStatusConfirm(next) })) setActive(next);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const draft = { name, mobileNumber, department, active };
    const parsed = doctor
      ? ZReferringDoctorUpdate.safeParse({ ...draft, id: doctor.id, version: doctor.version })
      : ZReferringDoctorInput.safeParse(draft);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    if (!doctor && !(await confirm({ message: M.createConfirm }))) return;
    setRefusal(null);
    setSaving(true);
    const stopLoading = startLoading(doctor ? M.updating : M.creating);
    try {
      const saved = await saveReferringDoctor(parsed.data);
      showInfo(doctor ? M.updated : M.created);
      await queryClient.invalidateQueries({ queryKey: LAB_DOCTORS_QUERY_ROOT });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      setRefusal(refusalText(error));
    } finally {
      stopLoading();
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="doctor-dialog-title">
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <DialogTitle id="doctor-dialog-title">
          {doctor ? 'Edit Referring Doctor' : 'Create Referring Doctor'}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {refusal && <Alert severity="error">{refusal}</Alert>}
            <TextField
              label="Name"
              name="name"
              required
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
            />
            <TextField
              label="Mobile number"
              name="mobileNumber"
              type="tel"
              value={mobileNumber}
              onChange={(e) => setMobileNumber(e.target.value)}
              error={Boolean(errors.mobileNumber)}
              helperText={errors.mobileNumber}
            />
            <TextField
              select
              label="Department"
              name="department"
              value={department}
              disabled={departmentFixed}
              onChange={(e) => setDepartment(e.target.value)}
              error={Boolean(errors.department)}
              helperText={
                errors.department ??
                (departmentFixed ? 'The department cannot be changed once set' : undefined)
              }
            >
              <MenuItem value={DEPARTMENT_NONE_OPTION}>{DEPARTMENT_NONE_OPTION}</MenuItem>
              {[...new Set([...departments, ...(departmentFixed ? [department] : [])])].map((d) => (
                <MenuItem key={d} value={d}>
                  {d}
                </MenuItem>
              ))}
            </TextField>
            <FormControlLabel
              control={<Switch checked={active} onChange={(e) => void onActiveChange(e.target.checked)} />}
              label={active ? 'Active' : 'Inactive'}
            />
            {errors.active && <Alert severity="warning">{errors.active}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {doctor ? 'Update' : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export default ReferringDoctorDialog;
