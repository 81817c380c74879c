import DownloadDoneIcon from '@mui/icons-material/DownloadDone';
import Tooltip from '@mui/material/Tooltip';
import { formatTimestamp } from '../../lib/format';
import { useSignedInSession } from '../auth/session';
import { DOWNLOADED_HERE, useDownloadedAt } from './downloaded-reports';

/** A row's mark that this browser already saved or printed its report (downloaded-reports.ts). */
export function DownloadedReportFlag({ reportStatusId }: { reportStatusId: number }) {
  const session = useSignedInSession();
  const at = useDownloadedAt(session.user.identifier, reportStatusId);
  if (!at) return null;
  const title = `${DOWNLOADED_HERE} ${formatTimestamp(at)}`;
  return (
    <Tooltip title={title}>
      <DownloadDoneIcon titleAccess={title} color="action" fontSize="small" sx={{ mx: 0.5 }} />
    </Tooltip>
  );
}
