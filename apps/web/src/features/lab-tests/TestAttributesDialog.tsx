import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_ATTRIBUTE_MODALITY,
  SETTINGS_MESSAGES,
  ZLabTestAttributesSave,
  labTestModalities,
  type TTestAttributeDefinition,
  type TTestAttributeType,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { LAB_TESTS_QUERY_KEY, failureText, fetchTestAttributes, saveTestAttributes } from './lab-tests.api';

export const ATTRIBUTE_LABELS = {
  title: 'Test Attributes',
  addFilm: 'Add film sizes',
  addContrast: 'Add contrast volumes',
  addChoice: 'Add choice',
  save: 'Save',
  cancel: 'Cancel',
  modality: 'Modality',
  size: 'Film size',
  volume: 'Contrast volume',
  price: 'Price (₹)',
  default: 'Default',
} as const;

const KIND_TITLE: Record<TTestAttributeType, string> = {
  MODALITY_BASED_FILM_SIZE: 'Film sizes',
  MODALITY_BASED_CONTRAST: 'Contrast volumes',
};

/** One choice as edited: the name (size or volume), the price as typed, the default flag. */
interface TChoiceForm {
  name: string;
  price: string;
  default: boolean;
}
interface TDefinitionForm {
  type: TTestAttributeType;
  modality: string;
  choices: TChoiceForm[];
}

const formOf = (d: TTestAttributeDefinition): TDefinitionForm => ({
  type: d.type,
  modality: d.modality,
  choices: (d.type === 'MODALITY_BASED_FILM_SIZE'
    ? d.filmSize.map((c) => ({ name: c.size, price: c.price, default: c.default }))
    : d.contrastVolume.map((c) => ({ name: c.volume, price: c.price, default: c.default }))
  ).map((c) => ({ ...c, price: String(c.price) })),
});

const toBody = (d: TDefinitionForm) => {
  const choices = d.choices.map((c) => ({
    price: c.price.trim() === '' ? Number.NaN : Number(c.price),
    default: c.default,
    name: c.name,
  }));
  return d.type === 'MODALITY_BASED_FILM_SIZE'
    ? {
        type: d.type,
        modality: d.modality,
        filmSize: choices.map(({ name, ...c }) => ({ size: name, ...c })),
      }
    : {
        type: d.type,
        modality: d.modality,
        contrastVolume: choices.map(({ name, ...c }) => ({ volume: name, ...c })),
      };
};

/**
 * The supervisor's editor of LAB_TEST_ATTRIBUTES (spec-lab §3, §9): per modality, film sizes or
 * contrast volumes with prices and at most one default (ticking one unticks the others); a new list
 * starts at DX for film and CT for contrast. Saved whole with the version it was read at.
 */
export function TestAttributesDialog(props: { showExtraModalityType: boolean; onClose(): void }) {
  const { showInfo, showError } = useFeedback();
  const stored = useQuery({
    queryKey: [...LAB_TESTS_QUERY_KEY, 'attributes'],
    queryFn: ({ signal }) => fetchTestAttributes(signal),
    staleTime: 0,
  });
  const [edited, setEdited] = useState<TDefinitionForm[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const definitions = edited ?? stored.data?.data.map(formOf) ?? [];
  const modalities = labTestModalities(props.showExtraModalityType);

  const change = (next: TDefinitionForm[]) => {
    setEdited(next);
    setProblem(null);
  };
  const changeAt = (index: number, patch: (d: TDefinitionForm) => TDefinitionForm) =>
    change(definitions.map((d, i) => (i === index ? patch(d) : d)));
  const add = (type: TTestAttributeType) =>
    change([
      ...definitions,
      { type, modality: DEFAULT_ATTRIBUTE_MODALITY[type], choices: [{ name: '', price: '', default: true }] },
    ]);

  async function save() {
    if (!stored.data) return;
    const parsed = ZLabTestAttributesSave.safeParse({
      data: definitions.map(toBody),
      version: stored.data.version,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Invalid test attributes');
      return;
    }
    setBusy(true);
    try {
      await saveTestAttributes(parsed.data);
      showInfo(SETTINGS_MESSAGES.updated);
      props.onClose();
    } catch (error) {
      showError(failureText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md">
      <DialogTitle>{ATTRIBUTE_LABELS.title}</DialogTitle>
      <DialogContent>
        {stored.isPending && <LinearProgress />}
        <Stack spacing={2} sx={{ mt: 1 }}>
          {definitions.map((d, di) => (
            <Paper key={di} variant="outlined" sx={{ p: 2 }} data-testid={`attribute-definition-${di}`}>
              <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 1 }}>
                <Typography variant="subtitle1" sx={{ flex: 1 }}>
                  {KIND_TITLE[d.type]}
                </Typography>
                <TextField
                  select
                  size="small"
                  label={ATTRIBUTE_LABELS.modality}
                  value={d.modality}
                  onChange={(e) => changeAt(di, (x) => ({ ...x, modality: e.target.value }))}
                  sx={{ width: 140 }}
                >
                  {modalities.map((m) => (
                    <MenuItem key={m} value={m}>
                      {m}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton
                  aria-label={`Remove ${KIND_TITLE[d.type]} of ${d.modality}`}
                  onClick={() => change(definitions.filter((_, i) => i !== di))}
                >
                  <DeleteIcon />
                </IconButton>
              </Box>
              {d.choices.map((c, ci) => (
                <Box key={ci} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
                  <TextField
                    size="small"
                    label={
                      d.type === 'MODALITY_BASED_FILM_SIZE' ? ATTRIBUTE_LABELS.size : ATTRIBUTE_LABELS.volume
                    }
                    value={c.name}
                    onChange={(e) =>
                      changeAt(di, (x) => ({
                        ...x,
                        choices: x.choices.map((y, i) => (i === ci ? { ...y, name: e.target.value } : y)),
                      }))
                    }
                  />
                  <TextField
                    size="small"
                    type="number"
                    label={ATTRIBUTE_LABELS.price}
                    value={c.price}
                    slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
                    onChange={(e) =>
                      changeAt(di, (x) => ({
                        ...x,
                        choices: x.choices.map((y, i) => (i === ci ? { ...y, price: e.target.value } : y)),
                      }))
                    }
                    sx={{ width: 130 }}
                  />
                  <FormControlLabel
                    label={ATTRIBUTE_LABELS.default}
                    control={
                      <Checkbox
                        checked={c.default}
                        onChange={(e) =>
                          // At most one default: ticking one unticks the rest.
                          changeAt(di, (x) => ({
                            ...x,
                            choices: x.choices.map((y, i) => ({
                              ...y,
                              default: i === ci ? e.target.checked : e.target.checked ? false : y.default,
                            })),
                          }))
                        }
                      />
                    }
                  />
                  <IconButton
                    aria-label="Remove choice"
                    onClick={() =>
                      changeAt(di, (x) => ({ ...x, choices: x.choices.filter((_, i) => i !== ci) }))
                    }
                  >
                    <DeleteIcon />
                  </IconButton>
                </Box>
              ))}
              <Button
                size="small"
                startIcon={<AddIcon />}
                onClick={() =>
                  changeAt(di, (x) => ({
                    ...x,
                    choices: [...x.choices, { name: '', price: '', default: false }],
                  }))
                }
              >
                {ATTRIBUTE_LABELS.addChoice}
              </Button>
            </Paper>
          ))}
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              startIcon={<AddIcon />}
              onClick={() => add('MODALITY_BASED_FILM_SIZE')}
              disabled={!stored.data}
            >
              {ATTRIBUTE_LABELS.addFilm}
            </Button>
            <Button
              startIcon={<AddIcon />}
              onClick={() => add('MODALITY_BASED_CONTRAST')}
              disabled={!stored.data}
            >
              {ATTRIBUTE_LABELS.addContrast}
            </Button>
          </Box>
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{ATTRIBUTE_LABELS.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || !stored.data}>
          {ATTRIBUTE_LABELS.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
