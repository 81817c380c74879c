import GraphicEqIcon from '@mui/icons-material/GraphicEq';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { AudioRecordingsDialog, type TAudioRecordingsDialogProps } from './AudioRecordingsDialog';

/** A toolbar button that opens the audio recordings dialog (for the report editor). */
export function AudioRecordingsButton({ row }: { row: TAudioRecordingsDialogProps['row'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title="Audio recordings">
        <IconButton size="small" aria-label="Audio recordings" onClick={() => setOpen(true)}>
          <GraphicEqIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && <AudioRecordingsDialog row={row} onClose={() => setOpen(false)} />}
    </>
  );
}
