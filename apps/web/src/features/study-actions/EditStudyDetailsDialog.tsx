import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  DEPARTMENT_OPTIONS,
  MESSAGES,
  STUDY_DETAILS_LIMITS,
  STUDY_DETAILS_SEXES,
  WORKLIST_MESSAGES,
  studyDetailsFormContext,
} from '@radflow/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ApiError, reportFailure } from '../../api/client';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import {
  checkDetailsForm,
  detailsFieldErrorOf,
  detailsFormFromRow,
  type TDetailsCheck,
  type TDetailsErrors,
  type TDetailsField,
  type TDetailsForm,
} from './details-form';
import type { TStudyDialogProps } from './dialog-props';
import { filterUserOptions } from './picker-filter';
import { fetchStudyTypes, updateDetails } from './study-actions.api';
import { UserPicker } from './UserPicker';
import { useActor, useRoleUsers } from './use-study-actions';

type TCheckedDetails = Extract<TDetailsCheck, { ok: true }>;

/** spec-core §9: the search of a multi-choice dropdown is debounced 500 ms. */
export const MULTI_SEARCH_DEBOUNCE_MS = 500;

const SEX_LABELS: Record<(typeof STUDY_DETAILS_SEXES)[number], string> = { M: 'Male', F: 'Female' };

type TTextField = Exclude<
  TDetailsField,
  'patientNumberNotAvailable' | 'referringDoctorNotAvailable' | 'reportParts' | 'referringDoctorEmail'
>;

/**
 * Edit study details (spec-core §2, §4, §5, §7 update-details): the patient, the order, the history,
 * the study type and the referring doctor, checked with the rules the server runs (core
 * checkStudyDetailsForm). On a CREATED study a center or tele-radiology user submits with 'Send for
 * reporting', which moves it to HISTORY_CREATED.
 */
export function EditStudyDetailsDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  const titleId = useId();
  const actor = useActor();
  const { showError, showInfo } = useFeedback();
  const context = studyDetailsFormContext({ roles: actor.roles, flags: actor.flags, row });
  const [form, setForm] = useState<TDetailsForm>(() => detailsFormFromRow(row));
  const [errors, setErrors] = useState<TDetailsErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: ({ request }: TCheckedDetails) => updateDetails(row.id, request),
    onSuccess: (_answer, { studyTypeChanged }) => {
      if (studyTypeChanged) showInfo(WORKLIST_MESSAGES.studyTypeUpdated);
      showInfo(WORKLIST_MESSAGES.historyUpdated);
      onChanged();
      onClose();
    },
    // The call is quiet: its refusal is shown here, on the field it names or above the form.
    onError: (error) => {
      const fieldErrors = detailsFieldErrorOf(error);
      if (fieldErrors) setErrors(fieldErrors);
      else if (error instanceof ApiError) {
        setFailure(error.message);
        if (error.failure.kind !== 'message') reportFailure(error);
      } else setFailure(String(error));
    },
  });
  const busy = save.isPending;
  const [typeSearch, setTypeSearch] = useState('');
  const settledTypeSearch = useDebouncedValue(typeSearch, MULTI_SEARCH_DEBOUNCE_MS);
  const studyTypes = useQuery({
    queryKey: ['study-types'],
    queryFn: ({ signal }) => fetchStudyTypes(signal),
  });
  const referringDoctors = useRoleUsers('ROLE_REFERRING_DOCTOR');

  const change = <K extends TDetailsField>(name: K, value: TDetailsForm[K]) => {
    const next = { ...form, [name]: value };
    setForm(next);
    // After a first submit the messages follow the typing, so a fixed field loses its message at once.
    if (submitted) {
      const checked = checkDetailsForm(next, row, context);
      setErrors(checked.ok ? {} : checked.errors);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const checked = checkDetailsForm(form, row, context);
    if (!checked.ok) {
      setErrors(checked.errors);
      // spec-core §5: a missing study type or referring doctor is an alert, not only a field message.
      if (checked.alert) showError(checked.alert);
      return;
    }
    setErrors({});
    save.mutate(checked);
  };

  const text = (
    name: TTextField,
    label: string,
    extra: { required?: boolean; maxLength?: number; disabled?: boolean; multiline?: boolean } = {},
  ) => (
    <TextField
      label={label}
      name={name}
      value={form[name]}
      onChange={(e) => change(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      required={extra.required}
      disabled={busy || extra.disabled}
      multiline={extra.multiline}
      minRows={extra.multiline ? 3 : undefined}
      slotProps={{ htmlInput: { maxLength: extra.maxLength } }}
    />
  );

  const required = !context.isSharingMode;
  const typeNames = [...new Set((studyTypes.data ?? []).map((t) => t.name))];

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>Edit study details · {row.id}</DialogTitle>
        <DialogContent>
          <Grid container spacing={1.5} sx={{ pt: 1 }}>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text('patientName', 'Patient name', { required, maxLength: STUDY_DETAILS_LIMITS.patientName })}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text('patientId', 'Patient id', { required, maxLength: STUDY_DETAILS_LIMITS.patientId })}
            </Grid>
            <Grid size={{ xs: 6, sm: 3 }}>
              {text('patientAge', 'Patient age', { required, maxLength: STUDY_DETAILS_LIMITS.patientAge })}
            </Grid>
            <Grid size={{ xs: 6, sm: 3 }}>
              <TextField
                select
                label="Patient sex"
                name="patientSex"
                value={form.patientSex}
                onChange={(e) => change('patientSex', e.target.value)}
                error={Boolean(errors.patientSex)}
                helperText={errors.patientSex}
                required={required}
                disabled={busy}
              >
                {STUDY_DETAILS_SEXES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {SEX_LABELS[s]}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 3 }}>
              {text('uhid', 'UHID', { maxLength: STUDY_DETAILS_LIMITS.uhid })}
            </Grid>
            <Grid size={{ xs: 12, sm: 3 }}>
              {text('accessionNumber', 'Accession number', {
                maxLength: STUDY_DETAILS_LIMITS.accessionNumber,
              })}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text('studyName', 'Study name', { required, maxLength: STUDY_DETAILS_LIMITS.studyName })}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <Autocomplete
                multiple
                options={typeNames}
                value={form.reportParts}
                onChange={(_e, next) => change('reportParts', next)}
                inputValue={typeSearch}
                onInputChange={(_e, next) => setTypeSearch(next)}
                filterOptions={(all) => filterUserOptions(all, settledTypeSearch)}
                noOptionsText={MESSAGES.noResultFound}
                loading={studyTypes.isPending}
                disabled={busy || !context.canEditStudyType}
                renderInput={(params) => (
                  <TextField
                    {...params}
                    label="Study type"
                    required={context.isStudyTypeRequired}
                    error={Boolean(errors.reportParts)}
                    helperText={errors.reportParts}
                  />
                )}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text('referringPhysicianName', 'Referring physician name', {
                required,
                maxLength: STUDY_DETAILS_LIMITS.referringPhysicianName,
              })}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                select
                label="Department"
                name="department"
                value={form.department}
                onChange={(e) => change('department', e.target.value)}
                disabled={busy}
              >
                {DEPARTMENT_OPTIONS.map((d) => (
                  <MenuItem key={d} value={d}>
                    {d}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text('mobileNumber', 'Patient mobile', {
                required: !form.patientNumberNotAvailable,
                maxLength: 10,
                disabled: form.patientNumberNotAvailable,
              })}
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.patientNumberNotAvailable}
                    onChange={(e) => change('patientNumberNotAvailable', e.target.checked)}
                    disabled={busy}
                  />
                }
                label={WORKLIST_MESSAGES.patientNumberNotAvailable}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('email', 'Patient e-mail', { maxLength: 320 })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <UserPicker
                label="Referring doctor"
                options={referringDoctors.emails}
                value={form.referringDoctorEmail}
                onChange={(email) => change('referringDoctorEmail', email)}
                loading={referringDoctors.isPending}
                disabled={busy || form.referringDoctorNotAvailable}
                error={errors.referringDoctorEmail}
              />
              {context.isSharingMode && (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={form.referringDoctorNotAvailable}
                      onChange={(e) => change('referringDoctorNotAvailable', e.target.checked)}
                      disabled={busy}
                    />
                  }
                  label={WORKLIST_MESSAGES.referringDoctorNotAvailable}
                />
              )}
            </Grid>
            <Grid size={12}>
              {text('history', 'History', {
                required: required && context.canEditHistory,
                multiline: true,
                maxLength: STUDY_DETAILS_LIMITS.history,
                // spec-core §4: "History field is disabled when SIGNED_OFF".
                disabled: !context.canEditHistory,
              })}
            </Grid>
            {failure && (
              <Grid size={12}>
                <Alert severity="error">{failure}</Alert>
              </Grid>
            )}
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit" disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {context.sendsForReporting ? WORKLIST_MESSAGES.sendForReporting : 'Save'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export default EditStudyDetailsDialog;
