import { Suspense, useEffect } from 'react';
import { SETTING_DIALOGS } from './entries';
import { closeSettingDialog, useOpenSettingEntry } from './setting-dialog-store';

/** Draws the open settings dialog (loaded on first use). Mounted once, in the top bar. */
export function SettingDialogHost() {
  const entry = useOpenSettingEntry();
  // Signing out unmounts the shell: the next user must not find the last dialog open.
  useEffect(() => closeSettingDialog, []);
  if (!entry) return null;
  const Dialog = SETTING_DIALOGS[entry];
  return (
    <Suspense fallback={null}>
      <Dialog key={entry} onClose={closeSettingDialog} />
    </Suspense>
  );
}
