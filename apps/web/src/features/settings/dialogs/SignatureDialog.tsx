import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { SETTINGS_MESSAGES, ZSignatureData, ZSignatureResponse } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest } from '../../../api/client';
import { useSnackbar } from '../../../components/feedback/feedback-context';
import { SettingDialogFrame } from '../SettingDialogFrame';
import { sendMultipart, settingErrorText } from '../settings-api';
import { PickedImageField, type TImageChoice } from './PdfMarginsDialog.image-field';

const SIGNATURE_KEY = ['metadata', 'sign'] as const;

/**
 * The multipart body of POST /metadata/upload/ after the rule the server applies (spec-lab §5
 * Signature: footer text required): `data` = {"name": …}, `file` only when a new image was picked
 * (without one the server keeps the stored image).
 */
export function buildSignatureForm(
  name: string,
  image: TImageChoice,
): { form: FormData } | { problem: string } {
  const parsed = ZSignatureData.safeParse({ name });
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Invalid signature' };
  const form = new FormData();
  form.append('data', JSON.stringify(parsed.data));
  if (image.kind === 'picked') form.append('file', image.file, image.file.name);
  return { form };
}

/**
 * Signature (spec-lab §3 signature: name and image): the image and the footer text printed under it
 * on signed reports, read with GET /api/metadata/sign and saved with POST /api/metadata/upload/.
 */
export default function SignatureDialog({ onClose }: { onClose: () => void }) {
  const current = useQuery({
    queryKey: SIGNATURE_KEY,
    queryFn: ({ signal }) =>
      apiRequest('/api/metadata/sign', { signal, quiet: true, schema: ZSignatureResponse }),
  });
  // What the user typed; until the first edit, the stored footer text.
  const [typed, setTyped] = useState<string | null>(null);
  const name = typed ?? current.data?.name ?? '';
  const [image, setImage] = useState<TImageChoice>({ kind: 'stored' });
  const [problem, setProblem] = useState<string | null>(null);
  const { showInfo, showError } = useSnackbar();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: async (form: FormData) =>
      ZSignatureResponse.parse(await sendMultipart('/api/metadata/upload/', form)),
    onSuccess: (saved) => {
      queryClient.setQueryData(SIGNATURE_KEY, saved);
      showInfo(SETTINGS_MESSAGES.updated);
      onClose();
    },
    onError: (error) => showError(settingErrorText(error)),
  });

  const onSave = () => {
    const built = buildSignatureForm(name, image);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    setProblem(null);
    save.mutate(built.form);
  };

  const failure = save.error ?? current.error;
  return (
    <SettingDialogFrame
      entry="SIGNATURE"
      onClose={onClose}
      onSave={onSave}
      saveDisabled={!current.data}
      busy={save.isPending}
      error={failure ? settingErrorText(failure) : null}
    >
      {current.data ? (
        <Stack spacing={2} sx={{ pt: 1 }}>
          <PickedImageField
            label="Signature image"
            pngOnly={false}
            storedUrl={current.data.signature}
            choice={image}
            onChange={setImage}
            removable={false}
            disabled={save.isPending}
          />
          <TextField
            label="Footer text"
            name="name"
            required
            value={name}
            onChange={(e) => {
              setTyped(e.target.value);
              setProblem(null);
            }}
            error={Boolean(problem)}
            helperText={problem ?? 'Printed under the signature'}
          />
        </Stack>
      ) : current.isPending ? (
        <CircularProgress aria-label="Loading" size={24} />
      ) : null}
    </SettingDialogFrame>
  );
}
