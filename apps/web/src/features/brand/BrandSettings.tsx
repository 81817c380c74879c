import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  BRAND_MESSAGES,
  BRAND_PRODUCT_NAME_MAX_LENGTH,
  SETTING_IMAGE_CONTENT_TYPES,
  ZBrandProductName,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { settingErrorText } from '../settings/settings-api';
import { BRAND_QUERY_KEY, brandQueryKey, saveBrand, useBrand } from './brand-api';

export const BRAND_TEXTS = {
  heading: 'Product name and logo',
  explanation:
    'Shown instead of Radflow on the sign-in page of your address (appDomain), the top bar, shared reports and report documents.',
  name: 'Product name',
  logo: 'Logo (PNG or JPEG, at most 2 MB)',
  chooseLogo: 'Choose logo',
  removeLogo: 'Use the Radflow mark',
  save: 'Save brand',
} as const;

/** The group admin's brand form (issue 29 §8): name, logo, back to the product's own. */
export function BrandSettings() {
  const brand = useBrand();
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const [name, setName] = useState('');
  const [logo, setLogo] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setName(brand.isCustom && brand.productName ? brand.productName : ''), [brand]);

  const save = useMutation({
    mutationFn: saveBrand,
    onSuccess: (saved) => {
      queryClient.setQueryData(brandQueryKey({ kind: 'session' }), saved);
      // Other scopes (a share page open in this tab) ask again.
      void queryClient.invalidateQueries({ queryKey: BRAND_QUERY_KEY });
      setLogo(null);
      setRemoveLogo(false);
      showInfo(BRAND_MESSAGES.saved);
    },
    onError: (e) => setError(settingErrorText(e)),
  });

  const submit = () => {
    const checked = ZBrandProductName.safeParse(name);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? BRAND_MESSAGES.productNameTooLong);
      return;
    }
    setError(null);
    save.mutate({ productName: name, logo, removeLogo });
  };

  const shownLogo = removeLogo ? null : brand.logoUrl;
  return (
    <Paper component="section" aria-labelledby="brand-heading" variant="outlined" sx={{ p: 2 }}>
      <Typography id="brand-heading" variant="h6" component="h2">
        {BRAND_TEXTS.heading}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {BRAND_TEXTS.explanation}
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: '28rem' }}>
        <TextField
          size="small"
          label={BRAND_TEXTS.name}
          placeholder="Radflow"
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: BRAND_PRODUCT_NAME_MAX_LENGTH + 10 } }}
        />
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            {BRAND_TEXTS.logo}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            {shownLogo && !logo && (
              <Box component="img" src={shownLogo} alt="Current logo" sx={{ maxHeight: 48, maxWidth: 160 }} />
            )}
            {logo && <Typography variant="body2">{logo.name}</Typography>}
            <Button component="label" variant="outlined" size="small" startIcon={<UploadIcon />}>
              {BRAND_TEXTS.chooseLogo}
              <input
                hidden
                type="file"
                aria-label={BRAND_TEXTS.chooseLogo}
                accept={SETTING_IMAGE_CONTENT_TYPES.join(',')}
                onChange={(e) => {
                  setLogo(e.target.files?.[0] ?? null);
                  setRemoveLogo(false);
                  e.target.value = '';
                }}
              />
            </Button>
            {(brand.logoUrl || logo) && !removeLogo && (
              <Button
                size="small"
                onClick={() => {
                  setLogo(null);
                  setRemoveLogo(true);
                }}
              >
                {BRAND_TEXTS.removeLogo}
              </Button>
            )}
          </Box>
        </Box>
        {error && <Alert severity="error">{error}</Alert>}
        <Box>
          <Button variant="contained" onClick={submit} disabled={save.isPending}>
            {BRAND_TEXTS.save}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
