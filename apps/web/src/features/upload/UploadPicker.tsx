import CloseIcon from '@mui/icons-material/Close';
import CreateNewFolderIcon from '@mui/icons-material/CreateNewFolderOutlined';
import FolderZipIcon from '@mui/icons-material/FolderZipOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import { addPickedFiles, formatBytes, totalBytes, type TPickRefusal } from './upload-batches';
import { entriesOfDrop, filesOfEntries } from './pick-from-drop';

const hiddenInputSx = {
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: 1,
  overflow: 'hidden',
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;

/** A button that opens the browser's file picker; the input inside is labelled by the button text. */
function PickButton({
  label,
  icon,
  disabled,
  accept,
  folder = false,
  onPick,
}: {
  label: string;
  icon: ReactNode;
  disabled: boolean;
  accept?: string;
  folder?: boolean;
  onPick: (files: File[]) => void;
}) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    onPick(Array.from(event.target.files ?? []));
    // Picking the same file again must fire change again.
    event.target.value = '';
  };
  return (
    <Button component="label" variant="outlined" size="small" startIcon={icon} disabled={disabled}>
      {label}
      <Box
        component="input"
        type="file"
        multiple
        accept={accept}
        disabled={disabled}
        onChange={onChange}
        sx={hiddenInputSx}
        // React has no typed prop for it; every browser we support reads the attribute.
        ref={(input: HTMLInputElement | null) => {
          if (input && folder) input.setAttribute('webkitdirectory', '');
        }}
      />
    </Button>
  );
}

/**
 * The image picker of the Create Study and upload-study dialogs: files, a folder or .zip archives,
 * by button or by drag and drop. Shows how many files and how many bytes are chosen, and says which
 * files were not taken and why (larger than the server accepts).
 */
export function UploadPicker({
  files,
  onChange,
  disabled = false,
}: {
  files: readonly File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
}) {
  const [refused, setRefused] = useState<TPickRefusal[]>([]);
  const [dragging, setDragging] = useState(false);

  const add = (incoming: File[]) => {
    const next = addPickedFiles(files, incoming);
    setRefused(next.refused);
    onChange(next.files);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const entries = entriesOfDrop(event.dataTransfer);
    if (!entries) {
      add(Array.from(event.dataTransfer.files));
      return;
    }
    filesOfEntries(entries).then(add, (error: unknown) => {
      console.error('Could not read the dropped folder', error);
      setRefused([{ name: 'The dropped folder', reason: 'could not be read; pick it with Folder instead' }]);
    });
  };

  const clear = () => {
    setRefused([]);
    onChange([]);
  };

  return (
    <Stack spacing={1}>
      <Box
        role="group"
        aria-label="Images"
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        sx={{
          border: '1px dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'transparent',
          borderRadius: 1,
          p: 1.5,
          transition: 'border-color 120ms, background-color 120ms',
        }}
      >
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <PickButton label="Files" icon={<UploadFileIcon />} disabled={disabled} onPick={add} />
          <PickButton label="Folder" icon={<CreateNewFolderIcon />} disabled={disabled} folder onPick={add} />
          <PickButton
            label=".zip"
            icon={<FolderZipIcon />}
            disabled={disabled}
            accept=".zip,application/zip,application/x-zip-compressed"
            onPick={add}
          />
          <Typography variant="body2" color="textSecondary" sx={{ flex: 1, minWidth: 160 }}>
            or drop DICOM files, a folder or .zip files here
          </Typography>
        </Stack>
        {files.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 1 }}>
            <Typography variant="body2" aria-live="polite">
              {files.length === 1 ? '1 file' : `${files.length} files`} selected,{' '}
              {formatBytes(totalBytes(files))}
            </Typography>
            <Button
              size="small"
              color="inherit"
              startIcon={<CloseIcon />}
              onClick={clear}
              disabled={disabled}
            >
              Clear
            </Button>
          </Stack>
        )}
      </Box>
      {refused.length > 0 && (
        <Alert severity="warning" onClose={() => setRefused([])}>
          {refused.length === 1 ? '1 file was not added:' : `${refused.length} files were not added:`}
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {refused.map((r, i) => (
              <li key={`${i}-${r.name}`}>
                {r.name} — {r.reason}
              </li>
            ))}
          </Box>
        </Alert>
      )}
    </Stack>
  );
}
