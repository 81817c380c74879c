import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PATIENT_SEXES } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { CENTERS_QUERY_KEY, STUDIES_QUERY_KEY, createStudy, fetchCenters } from '../../api/archive';
import { ApiError, reportFailure } from '../../api/client';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { UploadPicker } from '../upload/UploadPicker';
import { UploadProgressPanel } from '../upload/UploadProgressPanel';
import { IMAGE_ATTACHED } from '../upload/UploadStudyDialog';
import { useUpload } from '../upload/useUpload';
import {
  EMPTY_CREATE_STUDY_FORM,
  SEX_LABELS,
  STUDY_CREATED,
  fieldErrorOf,
  fixedCenter,
  modalityOptions,
  validateCreateStudy,
  type TCreateStudyErrors,
  type TCreateStudyField,
  type TCreateStudyForm,
} from './create-study-form';
import type { THeaderReading } from './read-headers';

/** The form fields a study's DICOM header fills (issue 21 §4). */
function headerValues(
  reading: THeaderReading | null,
  modalities: readonly string[],
): Partial<TCreateStudyForm> {
  const study = reading?.studies.length === 1 ? reading.studies[0] : undefined;
  if (!study) return {};
  const values: Partial<TCreateStudyForm> = {
    patientName: study.patientName.slice(0, 64),
    patientId: study.patientId.slice(0, 64),
    patientAge: study.patientAge.slice(0, 10),
    patientSex: study.patientSex,
    studyName: study.studyDescription.slice(0, 64),
    referringPhysicianName: study.referringPhysicianName.slice(0, 64),
  };
  if (modalities.includes(study.modality)) values.labModality = study.modality;
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v)) as Partial<TCreateStudyForm>;
}

export const joinedMessage = (id: number) =>
  `The files joined the existing study ${id}: its details were kept.`;

export { STUDY_CREATED };

/** Create Study opened from a lab bill's test line (lab-bills/bill-line-study.ts). */
export interface TCreateStudyFromBill {
  form: TCreateStudyForm;
  /** Sent with the request: the line the study is made for, and the bill's invoice number. */
  link: { labBillTestId: number; invoiceNumber: string };
  /** The study exists (the bill shows its line linked). */
  onCreated(): void;
}

/**
 * Create Study from the drawer (spec-core §2, §5, §7 create-from-website; issue 3 §3): the patient
 * and study details, checked with the core schema, then optional images uploaded to the new study
 * with progress. Owns its mutation, its snackbars and the study lists' refresh. Once the study exists
 * the form gives way to the upload, so a failed upload is tried again on the same study, never by
 * creating a second one.
 */
export function CreateStudyDialog({
  open,
  onClose,
  fromBill,
}: {
  open: boolean;
  onClose: () => void;
  /** Create Study for a lab bill's test line: the form starts from the bill, the study is the line's. */
  fromBill?: TCreateStudyFromBill;
}) {
  const { roles, flags, user } = useSignedInSession();
  const [form, setForm] = useState<TCreateStudyForm>(fromBill?.form ?? EMPTY_CREATE_STUDY_FORM);
  const [errors, setErrors] = useState<TCreateStudyErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const { showInfo } = useSnackbar();
  const queryClient = useQueryClient();
  const upload = useUpload();
  /** What the attached files' headers say (read lazily, in the browser), and the form before it filled in. */
  const [reading, setReading] = useState<THeaderReading | null>(null);
  const [beforeFill, setBeforeFill] = useState<TCreateStudyForm | null>(null);
  const modalities = modalityOptions(flags.showExtraModalityType);

  useEffect(() => {
    let live = true;
    if (files.length === 0) {
      setReading(null);
      return;
    }
    void import('./read-headers')
      .then(({ readHeaders }) => readHeaders(files))
      .then((next) => {
        if (live) setReading(next);
      })
      .catch(() => {
        if (live) setReading(null);
      });
    return () => {
      live = false;
    };
  }, [files]);

  const header = headerValues(reading, modalities);
  const headerStudy = reading?.studies.length === 1 ? reading.studies[0] : undefined;
  const studyCount = reading?.studies.length ?? 0;

  // A field the clerk left empty takes the header's value; what they typed stays theirs.
  useEffect(() => {
    if (!headerStudy) return;
    setForm((current) => {
      setBeforeFill((before) => before ?? current);
      const filled = { ...current };
      for (const [name, value] of Object.entries(headerValues(reading, modalities)))
        if (!filled[name as TCreateStudyField]) filled[name as TCreateStudyField] = value;
      return filled;
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per reading
  }, [reading]);

  const centers = useQuery({ queryKey: CENTERS_QUERY_KEY, queryFn: ({ signal }) => fetchCenters(signal) });
  const ownCenter = fixedCenter(roles, user.email, centers.data);
  const values: TCreateStudyForm = ownCenter ? { ...form, center: String(ownCenter.id) } : form;

  const refreshStudies = () => void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });

  const create = useMutation({ mutationFn: createStudy });
  const created = create.data;
  const uploading = upload.state.phase === 'uploading';

  const close = () => {
    if (uploading || create.isPending) return;
    onClose();
  };

  const sendImages = async (target: { reportStatusId: number } | { centerId: number }) => {
    const outcome = await upload.start(files, target);
    if (!outcome) return;
    if (outcome.stored > 0) {
      refreshStudies();
      showInfo(IMAGE_ATTACHED);
    }
    // Refused files stay listed until the user has read them.
    if (outcome.refused.length === 0) onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    if (studyCount > 1) {
      // Several studies: each becomes its own row with its headers' details (the server makes one
      // row per study and joins a study it has already); only the center is asked.
      if (!values.center) {
        setErrors({ center: 'Center is required' });
        return;
      }
      setErrors({});
      void sendImages({ centerId: Number(values.center) });
      return;
    }
    const checked = validateCreateStudy(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const typed = headerStudy
      ? { ...checked.request, studyInstanceUID: headerStudy.studyInstanceUid, joinExisting: true }
      : checked.request;
    const request = fromBill ? { ...typed, ...fromBill.link } : typed;
    create.mutate(request, {
      onSuccess: (study) => {
        refreshStudies();
        fromBill?.onCreated();
        showInfo(study.joinedExisting ? joinedMessage(study.id) : STUDY_CREATED);
        if (files.length === 0) onClose();
        else void sendImages({ reportStatusId: study.id });
      },
      onError: (error) => {
        const fieldErrors = fieldErrorOf(error);
        if (fieldErrors) setErrors(fieldErrors);
        else if (error instanceof ApiError) {
          setFailure(error.message);
          if (error.failure.kind !== 'message') reportFailure(error);
        } else setFailure(String(error));
      },
    });
  };

  const change = (name: TCreateStudyField, value: string) => {
    const next = { ...form, [name]: value };
    setForm(next);
    // After a first submit, errors follow the typing so a fixed field loses its message at once.
    if (submitted) {
      const checked = validateCreateStudy(ownCenter ? { ...next, center: String(ownCenter.id) } : next);
      setErrors(checked.ok ? {} : checked.errors);
    }
  };

  /** Where the header said something: the same value, or both when the clerk chose another. */
  const fromFiles = (name: TCreateStudyField): string | undefined => {
    if (name === 'labModality' && headerStudy?.modality && !header.labModality)
      return `The files say ${headerStudy.modality}`;
    const said = header[name];
    if (!said) return undefined;
    return values[name] === said ? 'From the files' : `The files say ${said}; yours is kept`;
  };

  const field = (
    name: TCreateStudyField,
    label: string,
    extra: {
      required?: boolean;
      select?: boolean;
      children?: ReactNode;
      multiline?: boolean;
      placeholder?: string;
    } = {},
  ) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={(e) => change(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? fromFiles(name)}
      required={extra.required && studyCount <= 1}
      select={extra.select}
      multiline={extra.multiline}
      minRows={extra.multiline ? 3 : undefined}
      placeholder={extra.placeholder}
      disabled={create.isPending}
    >
      {extra.children}
    </TextField>
  );

  const centerHelp = ownCenter
    ? 'Your center'
    : centers.isPending
      ? 'Loading centers…'
      : centers.isError
        ? 'The centers could not be loaded'
        : undefined;

  const formView = (
    <Grid container spacing={1.5} sx={{ pt: 1 }}>
      <Grid size={{ xs: 12, sm: 6 }}>{field('patientName', 'Patient name', { required: true })}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{field('uhid', 'UHID')}</Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        {field('labModality', 'Modality', {
          required: true,
          select: true,
          children: modalityOptions(flags.showExtraModalityType).map((m) => (
            <MenuItem key={m} value={m}>
              {m}
            </MenuItem>
          )),
        })}
      </Grid>
      <Grid size={{ xs: 6, sm: 4 }}>
        {field('patientAge', 'Patient age', { required: true, placeholder: 'e.g. 45Y' })}
      </Grid>
      <Grid size={{ xs: 6, sm: 4 }}>
        {field('patientSex', 'Patient gender', {
          required: true,
          select: true,
          children: PATIENT_SEXES.map((s) => (
            <MenuItem key={s} value={s}>
              {SEX_LABELS[s]}
            </MenuItem>
          )),
        })}
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          select
          required
          label="Center"
          name="center"
          value={centers.data ? values.center : ''}
          onChange={(e) => change('center', e.target.value)}
          error={Boolean(errors.center)}
          helperText={errors.center ?? centerHelp}
          disabled={Boolean(ownCenter) || !centers.data || create.isPending}
        >
          {(centers.data ?? []).map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{field('studyName', 'Study name', { required: true })}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{field('patientId', 'Patient id')}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>{field('referringPhysicianName', 'Referring physician name')}</Grid>
      <Grid size={12}>{field('history', 'History', { multiline: true })}</Grid>
      <Grid size={12}>
        <UploadPicker
          files={files}
          onChange={(next) => {
            if (next.length === 0 && beforeFill) {
              setForm(beforeFill);
              setBeforeFill(null);
            }
            setFiles(next);
          }}
          disabled={create.isPending}
        />
      </Grid>
      {studyCount > 1 && reading && (
        <Grid size={12}>
          <Alert severity="info">
            The files hold {studyCount} studies: they will become {studyCount} studies, each with the details
            its files carry (a study already here gets the files).
            <ul aria-label="Studies in the files">
              {reading.studies.map((s) => (
                <li key={s.studyInstanceUid}>
                  {[s.patientName || 'No name', s.modality, s.studyDescription].filter(Boolean).join(' · ')} —{' '}
                  {s.fileCount} {s.fileCount === 1 ? 'file' : 'files'}
                </li>
              ))}
            </ul>
          </Alert>
        </Grid>
      )}
      {failure && (
        <Grid size={12}>
          <Alert severity="error">{failure}</Alert>
        </Grid>
      )}
    </Grid>
  );

  const uploadView = (created || studyCount > 1) && upload.state.phase !== 'idle' && (
    <Stack spacing={1.5} sx={{ pt: 1 }}>
      <Typography variant="body2">
        {!created
          ? `Uploading ${studyCount} studies.`
          : created.joinedExisting
            ? joinedMessage(created.id)
            : `Study ${created.id} created for ${form.patientName.trim()}.`}
        {uploading && ' Uploading its images:'}
      </Typography>
      <UploadProgressPanel state={upload.state} />
    </Stack>
  );

  return (
    <Dialog open={open} onClose={close} maxWidth="md" fullWidth aria-labelledby="create-study-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="create-study-title">Create Study</DialogTitle>
        <DialogContent>{uploadView || formView}</DialogContent>
        <DialogActions>
          {uploadView ? (
            <>
              {uploading ? (
                <Button onClick={upload.cancel} color="inherit">
                  Cancel upload
                </Button>
              ) : (
                <Button onClick={onClose} color="inherit">
                  Close
                </Button>
              )}
              {created && (upload.state.phase === 'failed' || upload.state.phase === 'cancelled') && (
                <Button variant="contained" onClick={() => void sendImages({ reportStatusId: created.id })}>
                  Try the upload again
                </Button>
              )}
            </>
          ) : (
            <>
              <Button onClick={close} color="inherit" disabled={create.isPending}>
                Cancel
              </Button>
              <Button type="submit" variant="contained" disabled={create.isPending}>
                Submit
              </Button>
            </>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}

export default CreateStudyDialog;
