import Alert from '@mui/material/Alert';
import { FORWARDING_MESSAGES } from '@radflow/core';
import { useSignedInSession } from '../../auth/session';
import { ForwardingPacsSettings } from '../../forwarding/ForwardingPacsSettings';
import { SettingDialogFrame } from '../SettingDialogFrame';

/**
 * The forwarding PACS list (its own calls save each change), in the settings frame. A center keeps
 * the entry whatever the group's addForwardingPacsFeature (spec-lab §6); while the switch is off the
 * dialog says so instead of asking the forwarding calls, which refuse.
 */
export default function ForwardingPacsDialog({ onClose }: { onClose: () => void }) {
  const { flags } = useSignedInSession();
  return (
    <SettingDialogFrame entry="FORWARDING_PACS" onClose={onClose} cancelLabel="Close" maxWidth="md">
      {flags.addForwardingPacsFeature ? (
        <ForwardingPacsSettings />
      ) : (
        <Alert severity="info">{FORWARDING_MESSAGES.featureDisabled}</Alert>
      )}
    </SettingDialogFrame>
  );
}
