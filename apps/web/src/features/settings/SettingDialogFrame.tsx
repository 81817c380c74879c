import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { SETTING_ENTRY_LABELS, SETTINGS_MESSAGES, type TSettingEntry } from '@radflow/core';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useConfirm } from '../../components/feedback/feedback-context';

export interface TSettingDialogFrameProps {
  entry: TSettingEntry;
  onClose: () => void;
  children: ReactNode;
  /** Defaults to the entry's label. */
  title?: string;
  /** Without it the dialog has no Save button (a list that saves each change itself). */
  onSave?: () => void;
  /** A save (or reset) is running: Save shows its busy state and nothing can be sent twice. */
  busy?: boolean;
  saveDisabled?: boolean;
  saveLabel?: string;
  /** Shown only where the section can be reset; called after the user confirmed. */
  onReset?: () => void;
  /** A problem to show above the actions (e.g. the server's refusal); the form stays as typed. */
  error?: string | null;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** The Cancel button's words ('Close' where nothing is pending). */
  cancelLabel?: string;
}

/**
 * The shell of every settings dialog (contract "SettingDialogFrame"): title, content, then Cancel,
 * an optional Reset that asks first (spec-lab §6), and Save with a busy state. With a Save the content
 * is a form, so Enter in a field saves; without one it is not, so content with its own form (the
 * forwarding PACS list) does not nest forms.
 */
export function SettingDialogFrame({
  entry,
  onClose,
  children,
  title,
  onSave,
  busy = false,
  saveDisabled = false,
  saveLabel = 'Save',
  onReset,
  error,
  maxWidth = 'sm',
  cancelLabel = 'Cancel',
}: TSettingDialogFrameProps) {
  const titleId = useId();
  const confirm = useConfirm();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (onSave && !busy && !saveDisabled) onSave();
  };

  const reset = async () => {
    if (!onReset) return;
    const confirmed = await confirm({
      title: 'Reset settings',
      message: SETTINGS_MESSAGES.resetConfirm,
      confirmLabel: 'Reset',
    });
    if (confirmed) onReset();
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth={maxWidth}
      fullWidth
      aria-labelledby={titleId}
      data-testid={`setting-dialog-${entry}`}
    >
      <Body onSubmit={onSave ? onSubmit : undefined}>
        <DialogTitle id={titleId}>{title ?? SETTING_ENTRY_LABELS[entry]}</DialogTitle>
        <DialogContent dividers>
          {children}
          {error ? (
            // Not a live region: the snackbar already announces the failure; this keeps it in view.
            <Typography color="error" variant="body2" sx={{ mt: 2 }} data-testid="setting-dialog-error">
              {error}
            </Typography>
          ) : null}
        </DialogContent>
        <DialogActions>
          {onReset ? (
            <Button color="inherit" onClick={() => void reset()} disabled={busy} sx={{ mr: 'auto' }}>
              Reset
            </Button>
          ) : null}
          <Button color="inherit" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          {onSave ? (
            <Button type="submit" variant="contained" disabled={saveDisabled} loading={busy}>
              {saveLabel}
            </Button>
          ) : null}
        </DialogActions>
      </Body>
    </Dialog>
  );
}

export default SettingDialogFrame;

function Body({ onSubmit, children }: { onSubmit?: (event: FormEvent) => void; children: ReactNode }) {
  return onSubmit ? (
    <form noValidate onSubmit={onSubmit}>
      {children}
    </form>
  ) : (
    <>{children}</>
  );
}
