import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { canManagePayouts } from '@radflow/core';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useSession } from '../auth/session';
import { DoctorRatesTab } from './DoctorRatesTab';
import { MarginTab } from './MarginTab';
import { StatementsTab } from './StatementsTab';

type TPayoutTab = 'rates' | 'statements' | 'margin';

/**
 * /manage-tele-payout (ours, issue 26 §2): the tele roles set doctor rates, issue and pay payout
 * statements and read the margin; a doctor reads their own statements only.
 */
export function PayoutsPage() {
  const { data: session } = useSession();
  const manager = canManagePayouts(session?.roles ?? []);
  const [tab, setTab] = useState<TPayoutTab>('rates');
  if (!manager)
    return (
      <Box component="section">
        <PageHeader title="My payouts" />
        <StatementsTab manager={false} />
      </Box>
    );
  return (
    <Box component="section">
      <PageHeader title="Radiologist payouts" />
      <Tabs
        value={tab}
        onChange={(_, v: TPayoutTab) => setTab(v)}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', minHeight: 36 }}
      >
        <Tab value="rates" label="Doctor rates" id="payout-tab-rates" aria-controls="payout-panel" />
        <Tab value="statements" label="Statements" id="payout-tab-statements" aria-controls="payout-panel" />
        <Tab value="margin" label="Margin" id="payout-tab-margin" aria-controls="payout-panel" />
      </Tabs>
      <Box role="tabpanel" id="payout-panel" aria-labelledby={`payout-tab-${tab}`}>
        {tab === 'rates' && <DoctorRatesTab />}
        {tab === 'statements' && <StatementsTab manager />}
        {tab === 'margin' && <MarginTab />}
      </Box>
    </Box>
  );
}

export default PayoutsPage;
