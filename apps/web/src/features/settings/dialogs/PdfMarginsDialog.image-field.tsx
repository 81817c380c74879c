import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { SETTING_IMAGE_SNIFF_BYTES, settingImageProblem } from '@radflow/core';
import { useState } from 'react';

/** What the form does with an image: keep the stored one, send a picked file, or remove it. */
export type TImageChoice =
  { kind: 'stored' } | { kind: 'picked'; file: File; preview: string } | { kind: 'removed' };

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read'));
    reader.readAsDataURL(file);
  });

/**
 * Checks a picked image as the server will (size, png/jpeg by its first bytes; png only where
 * `pngOnly`), before anything is sent: the problem's text, or the file with its preview.
 */
export async function pickImage(
  file: File,
  pngOnly: boolean,
): Promise<{ problem: string } | { choice: TImageChoice }> {
  const head = new Uint8Array(await file.slice(0, SETTING_IMAGE_SNIFF_BYTES).arrayBuffer());
  const problem = settingImageProblem({ size: file.size, head }, { pngOnly });
  if (problem) return { problem: problem.message };
  return { choice: { kind: 'picked', file, preview: await readDataUrl(file) } };
}

/**
 * An image sent with its form as multipart (the page layout's header and footer, the signature), unlike
 * the section images uploaded on their own (ImageUploadField): previews the stored or picked image.
 */
export function PickedImageField({
  label,
  pngOnly,
  storedUrl,
  choice,
  onChange,
  removable,
  disabled = false,
}: {
  label: string;
  pngOnly: boolean;
  storedUrl: string | null;
  choice: TImageChoice;
  onChange: (choice: TImageChoice) => void;
  removable: boolean;
  disabled?: boolean;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const shown = choice.kind === 'picked' ? choice.preview : choice.kind === 'stored' ? storedUrl : null;

  const onPick = async (file: File) => {
    const picked = await pickImage(file, pngOnly);
    if ('problem' in picked) {
      setProblem(picked.problem);
      return;
    }
    setProblem(null);
    onChange(picked.choice);
  };

  return (
    <Box role="group" aria-label={label}>
      <Typography variant="subtitle2" gutterBottom>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={`${label} preview`}
            sx={{ maxHeight: 80, maxWidth: 240, border: 1, borderColor: 'divider' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            No image
          </Typography>
        )}
        <Button
          component="label"
          variant="outlined"
          size="small"
          startIcon={<UploadIcon />}
          disabled={disabled}
        >
          {shown ? 'Change image' : 'Choose image'}
          <input
            hidden
            type="file"
            accept={pngOnly ? 'image/png' : 'image/png,image/jpeg'}
            aria-label={`${label} file`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void onPick(file);
            }}
          />
        </Button>
        {removable && shown ? (
          <Button
            size="small"
            color="inherit"
            aria-label={`Remove ${label.toLowerCase()}`}
            disabled={disabled}
            onClick={() => onChange({ kind: 'removed' })}
          >
            Remove
          </Button>
        ) : null}
      </Box>
      {problem ? (
        <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
          {problem}
        </Typography>
      ) : null}
    </Box>
  );
}
