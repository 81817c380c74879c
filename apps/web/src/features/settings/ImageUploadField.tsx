import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useSnackbar } from '../../components/feedback/feedback-context';
import type { TSettingAssetType } from '@radflow/core';
import { uploadSettingAsset } from './asset-upload-api';

export const IMAGE_UPLOADING = 'Please wait while we upload image';
export const IMAGE_UPLOAD_FAILED = 'Image upload failed';

/**
 * An image of a settings section (center image, billing logo): uploads the chosen file at once
 * (POST /api/setting/upload-assets/) and hands its public URL to the form, which saves it with the
 * rest. The server checks the bytes and the size; the browser only offers png and jpeg.
 */
export function ImageUploadField({
  label,
  assetType,
  value,
  onChange,
  onBusyChange,
}: {
  label: string;
  assetType: TSettingAssetType;
  value: string;
  onChange: (url: string) => void;
  onBusyChange?: (busy: boolean) => void;
}) {
  const { showError } = useSnackbar();
  const upload = useMutation({
    mutationFn: (file: File) => uploadSettingAsset(file, assetType),
    onMutate: () => onBusyChange?.(true),
    onSuccess: (asset) => onChange(asset.publicS3ImageUrl),
    onError: () => showError(IMAGE_UPLOAD_FAILED),
    onSettled: () => onBusyChange?.(false),
  });
  const uploading = upload.isPending;

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        {value ? (
          <Box
            component="img"
            src={value}
            alt={label}
            sx={{ maxHeight: 64, maxWidth: 200, border: 1, borderColor: 'divider' }}
          />
        ) : null}
        <Button
          component="label"
          variant="outlined"
          size="small"
          startIcon={<UploadIcon />}
          disabled={uploading}
        >
          {value ? 'Change image' : 'Upload image'}
          <input
            hidden
            type="file"
            accept="image/png,image/jpeg"
            aria-label={label}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.mutate(file);
            }}
          />
        </Button>
        {value && !uploading ? (
          <Button size="small" color="inherit" onClick={() => onChange('')}>
            Remove
          </Button>
        ) : null}
        {uploading ? (
          <Typography role="status" color="textSecondary">
            {IMAGE_UPLOADING}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}
