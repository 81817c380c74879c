import Box from '@mui/material/Box';
import { useSignedInSession } from '../auth/session';
import { ReportEditorPanel } from './ReportEditorPanel';
import type { TCaptureImage } from './ReportWorkspace';

/**
 * The report editor beside the viewer's images (spec-core §2 Viewer entry, `showEditor`): half the
 * width with the user's halfPageReporting, else about a third. Its own chunk (TipTap), loaded by the
 * viewer only when the editor shows.
 */
export default function ViewerEditorPanel({
  reportStatusId,
  captureImage,
}: {
  reportStatusId: number;
  captureImage: TCaptureImage;
}) {
  const session = useSignedInSession();
  const half = session.preferences.UI_PREFERENCES.halfPageReporting;
  return (
    <Box
      component="aside"
      aria-label="Report editor"
      sx={{
        width: half ? '50%' : '33%',
        minWidth: 360,
        flex: 'none',
        borderLeft: 1,
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
        overflowY: 'auto',
      }}
    >
      <ReportEditorPanel reportStatusId={reportStatusId} captureImage={captureImage} />
    </Box>
  );
}
