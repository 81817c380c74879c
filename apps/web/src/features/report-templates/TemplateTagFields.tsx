import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ALL_LAB_MODALITIES, TEMPLATE_TAGS_MAX, type TTemplateGender } from '@radflow/core';
import { GENDER_OPTIONS } from './template-rules';

export interface TTemplateTags {
  modalities: string[];
  bodyParts: string[];
  gender: TTemplateGender | null;
}

/** Body parts offered in the tag editor; any other may be typed. */
const BODY_PART_SUGGESTIONS = [
  'Head',
  'Brain',
  'Neck',
  'Chest',
  'Abdomen',
  'Pelvis',
  'Spine',
  'Knee',
  'Shoulder',
  'Hand',
  'Foot',
  'Breast',
];

const dedupe = (values: readonly string[], upper: boolean) => {
  const out: string[] = [];
  for (const raw of values) {
    const value = upper ? raw.trim().toUpperCase() : raw.trim();
    if (value && !out.some((v) => v.toLowerCase() === value.toLowerCase())) out.push(value);
  }
  return out.slice(0, TEMPLATE_TAGS_MAX);
};

/**
 * The template tags of issue 7 §1 (spec-core §3 Template tags: body part, modality, gender), as the
 * template tag editor and the new-template dialog show them. Empty means "any study".
 */
export function TemplateTagFields({
  value,
  onChange,
  disabled,
}: {
  value: TTemplateTags;
  onChange: (next: TTemplateTags) => void;
  disabled?: boolean;
}) {
  return (
    <Stack spacing={2}>
      <Autocomplete
        multiple
        freeSolo
        disabled={disabled}
        options={[...ALL_LAB_MODALITIES]}
        value={value.modalities}
        onChange={(_, next) => onChange({ ...value, modalities: dedupe(next, true) })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Modalities"
            helperText="Empty: every modality. Press Enter after each."
          />
        )}
      />
      <Autocomplete
        multiple
        freeSolo
        disabled={disabled}
        options={BODY_PART_SUGGESTIONS}
        value={value.bodyParts}
        onChange={(_, next) => onChange({ ...value, bodyParts: dedupe(next, false) })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Body parts"
            helperText="Empty: every body part. Press Enter after each."
          />
        )}
      />
      <TextField
        select
        label="Gender"
        disabled={disabled}
        value={value.gender ?? ''}
        onChange={(e) =>
          onChange({ ...value, gender: e.target.value === '' ? null : (e.target.value as TTemplateGender) })
        }
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">Any</MenuItem>
        {GENDER_OPTIONS.map((g) => (
          <MenuItem key={g.value} value={g.value}>
            {g.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
