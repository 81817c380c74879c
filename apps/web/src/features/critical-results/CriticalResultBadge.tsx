import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import Tooltip from '@mui/material/Tooltip';

/** The study row's mark while one of its critical results waits for acknowledgment. */
export function CriticalResultBadge({ reportStatusId }: { reportStatusId: number }) {
  return (
    <Tooltip title="Open critical result">
      <ReportProblemIcon
        color="error"
        fontSize="small"
        // SvgIcon hides itself from assistive technology unless it has a title.
        titleAccess="Open critical result"
        data-testid={`critical-badge-${reportStatusId}`}
      />
    </Tooltip>
  );
}
