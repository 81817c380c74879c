import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';

/** A pending question for an arrow's label: the text so far and where the answer goes. */
export interface TArrowLabelRequest {
  initial: string;
  done: (text: string) => void;
}

/** Asks the text of an arrow annotation (key y); Cancel leaves a new arrow out. */
export function ArrowLabelDialog({
  request,
  onClose,
}: {
  request: TArrowLabelRequest | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={request !== null}
      onClose={() => finish(request, null, onClose)}
      aria-labelledby="arrow-label-title"
    >
      {request && <ArrowLabelForm request={request} onClose={onClose} />}
    </Dialog>
  );
}

function finish(request: TArrowLabelRequest | null, text: string | null, onClose: () => void) {
  request?.done(text ?? request.initial);
  onClose();
}

function ArrowLabelForm({ request, onClose }: { request: TArrowLabelRequest; onClose: () => void }) {
  const [text, setText] = useState(request.initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish(request, text.trim(), onClose);
  };
  return (
    <form onSubmit={submit}>
      <DialogTitle id="arrow-label-title">Arrow label</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label="Label"
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => finish(request, null, onClose)}>Cancel</Button>
        <Button type="submit" variant="contained">
          OK
        </Button>
      </DialogActions>
    </form>
  );
}
