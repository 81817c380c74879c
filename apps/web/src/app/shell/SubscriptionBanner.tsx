import Alert from '@mui/material/Alert';
import { MESSAGES } from '@radflow/core';

/** spec-core §2 Shell: shown while the group switch showSubscriptionWarning is on. */
export function SubscriptionBanner() {
  return (
    <Alert severity="warning" square role="status" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      {MESSAGES.subscriptionWarning}
    </Alert>
  );
}
