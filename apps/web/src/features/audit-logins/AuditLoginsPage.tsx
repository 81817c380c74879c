import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { DevicesTable } from './DevicesTable';
import { SignInLogTable } from './SignInLogTable';

type TAuditTab = 'devices' | 'log';

/** /audit-logins (ROLE_GROUP): approve or reject devices, and read the sign-in log (spec-core §4). */
export function AuditLoginsPage() {
  const [tab, setTab] = useState<TAuditTab>('devices');
  return (
    <Box component="section">
      <PageHeader title="Audit Logins" />
      <Tabs
        value={tab}
        onChange={(_, v: TAuditTab) => setTab(v)}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', minHeight: 36 }}
      >
        <Tab
          value="devices"
          label="Devices"
          id="audit-tab-devices"
          aria-controls="audit-panel"
          sx={{ minHeight: 36 }}
        />
        <Tab
          value="log"
          label="Sign-in log"
          id="audit-tab-log"
          aria-controls="audit-panel"
          sx={{ minHeight: 36 }}
        />
      </Tabs>
      <Box role="tabpanel" id="audit-panel" aria-labelledby={`audit-tab-${tab}`}>
        {tab === 'devices' ? <DevicesTable /> : <SignInLogTable />}
      </Box>
    </Box>
  );
}

export default AuditLoginsPage;
