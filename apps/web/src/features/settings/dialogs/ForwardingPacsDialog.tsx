import { ForwardingPacsSettings } from '../../forwarding/ForwardingPacsSettings';
import { SettingDialogFrame } from '../SettingDialogFrame';

/** The forwarding PACS list (its own calls save each change), in the settings frame. */
export default function ForwardingPacsDialog({ onClose }: { onClose: () => void }) {
  return (
    <SettingDialogFrame entry="FORWARDING_PACS" onClose={onClose} cancelLabel="Close" maxWidth="md">
      <ForwardingPacsSettings />
    </SettingDialogFrame>
  );
}
