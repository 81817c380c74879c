import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES, SIGN_OFF_TIME_LIMIT_OPTIONS, ZVerificationSettings } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../../components/feedback/feedback-context';
import { useSignedInSession } from '../../auth/session';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { postSection, settingErrorText, storeSection } from '../settings-api';

type TPair = { centerEmail: string; doctorEmail: string };

/** Active users of a role in the group's user map (GET /api/user/mapping), for the e-mail pickers. */
function emailsOf(mapping: Record<string, { email: string; active: boolean }[]>, ...roles: string[]) {
  return [
    ...new Set(roles.flatMap((role) => (mapping[role] ?? []).filter((u) => u.active).map((u) => u.email))),
  ];
}

/** Row errors from core's rule (the server answers the same words). */
export function pairProblems(pairs: readonly TPair[]): Record<string, string> {
  const parsed = ZVerificationSettings.safeParse({ centersAndDoctorsList: pairs });
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const [, index, field] = issue.path;
    problems[`${String(index)}.${String(field)}`] ??= issue.message;
  }
  return problems;
}

/**
 * spec-lab §3 verification settings (group): VERIFICATION_SETTINGS for who verifies whom, and the
 * sign-off time limit and red-after-TAT of ADMIN_PREFERENCES, where the worklist reads them. One
 * Save sends both (update-group) and shows one toast.
 */
export default function VerificationSettingsDialog({ onClose }: { onClose: () => void }) {
  const { preferences, mapping } = useSignedInSession();
  const stored = preferences.VERIFICATION_SETTINGS;
  const [needVerification, setNeedVerification] = useState(stored.needVerification);
  const [selectAll, setSelectAll] = useState(stored.selectAllDoctorsAndCenters);
  const [pairs, setPairs] = useState<TPair[]>(stored.centersAndDoctorsList);
  const [limit, setLimit] = useState<number | null>(preferences.ADMIN_PREFERENCES.signOffTimeLimit);
  const [showRed, setShowRed] = useState(preferences.ADMIN_PREFERENCES.showRedAfterTAT);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const centers = emailsOf(mapping, 'ROLE_CENTER');
  const doctors = emailsOf(mapping, 'ROLE_DOCTOR');

  const queryClient = useQueryClient();
  const { showInfo, showError } = useSnackbar();
  const mutation = useMutation({
    mutationFn: async (reset: boolean) => {
      const verification = reset
        ? await postSection('reset-group', 'VERIFICATION_SETTINGS')
        : await postSection('update-group', 'VERIFICATION_SETTINGS', {
            needVerification,
            selectAllDoctorsAndCenters: selectAll,
            centersAndDoctorsList: pairs,
          });
      storeSection(queryClient, 'VERIFICATION_SETTINGS', verification);
      // Only the two fields of this dialog: the rest of ADMIN_PREFERENCES is the group screen's.
      const admin = await postSection('update-group', 'ADMIN_PREFERENCES', {
        signOffTimeLimit: reset ? null : limit,
        showRedAfterTAT: reset ? false : showRed,
      });
      storeSection(queryClient, 'ADMIN_PREFERENCES', admin);
    },
    onSuccess: () => {
      showInfo(SETTINGS_MESSAGES.updated);
      onClose();
    },
    onError: (error) => showError(settingErrorText(error)),
  });

  const save = () => {
    const found = selectAll ? {} : pairProblems(pairs);
    setProblems(found);
    if (Object.keys(found).length === 0) mutation.mutate(false);
  };

  const setPair = (index: number, field: keyof TPair, value: string) => {
    setPairs((list) => list.map((p, i) => (i === index ? { ...p, [field]: value } : p)));
    setProblems((p) => ({ ...p, [`${index}.${field}`]: '' }));
  };

  const emailField = (index: number, field: keyof TPair, label: string, options: string[]) => (
    <Autocomplete
      freeSolo
      options={options}
      value={pairs[index]?.[field] ?? ''}
      inputValue={pairs[index]?.[field] ?? ''}
      onInputChange={(_, value) => setPair(index, field, value)}
      sx={{ flex: 1 }}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={label}
          error={Boolean(problems[`${index}.${field}`])}
          helperText={problems[`${index}.${field}`] || undefined}
        />
      )}
    />
  );

  return (
    <SettingDialogFrame
      entry="VERIFICATION_SETTINGS"
      onClose={onClose}
      maxWidth="md"
      onSave={save}
      onReset={() => mutation.mutate(true)}
      busy={mutation.isPending}
      error={mutation.error ? settingErrorText(mutation.error) : null}
    >
      <Stack spacing={2}>
        <FormControlLabel
          control={
            <Switch checked={needVerification} onChange={(e) => setNeedVerification(e.target.checked)} />
          }
          label="Reports need verification before sign-off"
        />
        <FormControlLabel
          control={<Switch checked={selectAll} onChange={(e) => setSelectAll(e.target.checked)} />}
          label="Verify for all doctors and centers"
        />
        {!selectAll && (
          <Box>
            <Typography variant="subtitle2" gutterBottom>
              Centers and doctors to verify
            </Typography>
            <Stack spacing={1.5}>
              {pairs.map((_, index) => (
                <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                  {emailField(index, 'centerEmail', 'Center email', centers)}
                  {emailField(index, 'doctorEmail', 'Doctor email', doctors)}
                  <IconButton
                    aria-label={`Remove row ${index + 1}`}
                    onClick={() => setPairs((list) => list.filter((__, i) => i !== index))}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Box>
              ))}
              <Button
                size="small"
                startIcon={<AddIcon />}
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => setPairs((list) => [...list, { centerEmail: '', doctorEmail: '' }])}
              >
                Add center and doctor
              </Button>
            </Stack>
          </Box>
        )}
        <TextField
          select
          label="Sign-off time limit"
          value={limit === null ? '' : String(limit)}
          onChange={(e) => setLimit(e.target.value === '' ? null : Number(e.target.value))}
          helperText="Minutes a study may wait for sign-off before it counts as late"
          sx={{ maxWidth: 320 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">None</MenuItem>
          {SIGN_OFF_TIME_LIMIT_OPTIONS.map((minutes) => (
            <MenuItem key={minutes} value={String(minutes)}>
              {minutes} minutes
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={showRed} onChange={(e) => setShowRed(e.target.checked)} />}
          label="Show studies in red after the turnaround time"
        />
      </Stack>
    </SettingDialogFrame>
  );
}
