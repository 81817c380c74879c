import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  LAB_LIMITS,
  LAB_PATIENT_MESSAGES as M,
  PATIENT_DESIGNATIONS,
  PATIENT_GENDERS,
  type TLabPatient,
  ZLabPatientInput,
  ageFromDateOfBirth,
  ageStringOf,
  clampAgePart,
} from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLoading, useSnackbar } from '../../components/feedback/feedback-context';
import { LAB_PATIENTS_QUERY_ROOT, savePatient } from './lab-patients-api';
import { GENDER_LABELS, fieldErrors, refusalText } from './lab-form';
import { todayInDisplayZone } from '../../lib/format';

type TField =
  | 'designation'
  | 'name'
  | 'gender'
  | 'mobileNumber'
  | 'ageYears'
  | 'ageMonths'
  | 'ageDays'
  | 'dateBirth'
  | 'email'
  | 'address'
  | 'weight';
type TDraft = Record<TField, string>;

const AGE_MAX = {
  ageYears: LAB_LIMITS.ageYears,
  ageMonths: LAB_LIMITS.ageMonths,
  ageDays: LAB_LIMITS.ageDays,
};

function draftOf(patient: TLabPatient | null, initial: { name?: string; mobileNumber?: string }): TDraft {
  const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const age = (v: number | undefined) => (v ? String(v) : '');
  return {
    designation: patient?.designation ?? '',
    name: patient?.name ?? initial.name ?? '',
    gender: patient?.gender ?? '',
    mobileNumber: text(patient?.mobileNumber ?? initial.mobileNumber),
    ageYears: age(patient?.ageYears),
    ageMonths: age(patient?.ageMonths),
    ageDays: age(patient?.ageDays),
    dateBirth: text(patient?.dateBirth),
    email: text(patient?.email),
    address: text(patient?.address),
    weight: text(patient?.weight),
  };
}

/**
 * Create or edit a patient (spec-lab §2 dialogs, §5 Patient): every rule and message is core's
 * (ZLabPatientInput), checked here before sending and again by the server. The age parts keep
 * their absolute value within 150 years, 11 months, 30 days as they are typed; a date of birth
 * fills them in. The UHID is the server's.
 */
export function PatientDialog({
  patient,
  initial = {},
  onClose,
  onSaved,
}: {
  /** The patient to edit; null to create one. */
  patient: TLabPatient | null;
  /** What the front desk already typed into its search (a name or a mobile), for a new patient. */
  initial?: { name?: string; mobileNumber?: string };
  onClose: () => void;
  onSaved?: (patient: TLabPatient) => void;
}) {
  const [draft, setDraft] = useState<TDraft>(() => draftOf(patient, initial));
  const [errors, setErrors] = useState<Partial<Record<TField, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const startLoading = useLoading();
  const { showInfo } = useSnackbar();

  const set = (field: TField, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const setAge = (field: keyof typeof AGE_MAX, value: string) =>
    set(field, value === '' || value === '-' ? '' : String(clampAgePart(Number(value), AGE_MAX[field])));
  const setDateBirth = (value: string) => {
    const age = value ? ageFromDateOfBirth(value, todayInDisplayZone()) : null;
    setDraft((d) =>
      age
        ? {
            ...d,
            dateBirth: value,
            ageYears: age.years ? String(age.years) : '',
            ageMonths: age.months ? String(age.months) : '',
            ageDays: age.days ? String(age.days) : '',
          }
        : { ...d, dateBirth: value },
    );
  };
  const ageNumber = (v: string) => (v === '' ? 0 : Number(v));
  const ageString = ageStringOf({
    years: ageNumber(draft.ageYears),
    months: ageNumber(draft.ageMonths),
    days: ageNumber(draft.ageDays),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZLabPatientInput.safeParse(draft);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setRefusal(null);
    setSaving(true);
    const stopLoading = startLoading(patient ? M.updating : M.creating);
    try {
      const saved = await savePatient(parsed.data, patient);
      showInfo(patient ? M.updated : M.created);
      await queryClient.invalidateQueries({ queryKey: LAB_PATIENTS_QUERY_ROOT });
      onSaved?.(saved);
      onClose();
    } catch (error) {
      setRefusal(refusalText(error));
    } finally {
      stopLoading();
      setSaving(false);
    }
  };

  const field = (
    name: TField,
    label: string,
    extra: Partial<{
      type: string;
      required: boolean;
      autoFocus: boolean;
      helperText: string;
      multiline: boolean;
    }> = {},
  ) => (
    <TextField
      label={label}
      name={name}
      value={draft[name]}
      type={extra.type}
      required={extra.required}
      autoFocus={extra.autoFocus}
      multiline={extra.multiline}
      fullWidth
      slotProps={extra.type === 'date' ? { inputLabel: { shrink: true } } : undefined}
      onChange={(e) =>
        name === 'ageYears' || name === 'ageMonths' || name === 'ageDays'
          ? setAge(name, e.target.value)
          : name === 'dateBirth'
            ? setDateBirth(e.target.value)
            : set(name, e.target.value)
      }
      error={Boolean(errors[name])}
      helperText={errors[name] ?? extra.helperText}
    />
  );
  const select = (
    name: 'designation' | 'gender',
    label: string,
    options: ReadonlyArray<[string, string]>,
  ) => (
    <TextField
      select
      label={label}
      name={name}
      value={draft[name]}
      required
      fullWidth
      onChange={(e) => set(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
    >
      {options.map(([value, text]) => (
        <MenuItem key={value} value={value}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="patient-dialog-title">
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <DialogTitle id="patient-dialog-title">
          {patient ? `Edit Patient ${patient.uhidNumber}` : 'Create Patient'}
        </DialogTitle>
        <DialogContent>
          {refusal && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {refusal}
            </Alert>
          )}
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={{ xs: 4 }}>
              {select(
                'designation',
                'Designation',
                PATIENT_DESIGNATIONS.map((d) => [d, d]),
              )}
            </Grid>
            <Grid size={{ xs: 8 }}>{field('name', 'Name', { required: true, autoFocus: !patient })}</Grid>
            <Grid size={{ xs: 4 }}>
              {select(
                'gender',
                'Gender',
                PATIENT_GENDERS.map((g) => [g, GENDER_LABELS[g]]),
              )}
            </Grid>
            <Grid size={{ xs: 8 }}>{field('mobileNumber', 'Mobile number', { type: 'tel' })}</Grid>
            <Grid size={{ xs: 4 }}>{field('ageYears', 'Age years', { type: 'number' })}</Grid>
            <Grid size={{ xs: 4 }}>{field('ageMonths', 'Age months', { type: 'number' })}</Grid>
            <Grid size={{ xs: 4 }}>{field('ageDays', 'Age days', { type: 'number' })}</Grid>
            <Grid size={{ xs: 6 }}>
              {field('dateBirth', 'Date of birth', {
                type: 'date',
                helperText: ageString ? `Age: ${ageString}` : undefined,
              })}
            </Grid>
            <Grid size={{ xs: 6 }}>{field('weight', 'Weight (kg)', { type: 'number' })}</Grid>
            <Grid size={{ xs: 12 }}>{field('email', 'E-mail')}</Grid>
            <Grid size={{ xs: 12 }}>{field('address', 'Address', { multiline: true })}</Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {patient ? 'Update' : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export default PatientDialog;
