import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { SETTING_ENTRY_LABELS, type TSettingEntry } from '@radflow/core';
import { Suspense, useEffect, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { openSettingDialog, preloadSettingDialogs } from './setting-dialog-store';
import { useSettingEntries } from './useSettingEntries';
import { preloadable } from '../../lib/preloadable';

const GroupSettingsPanel = preloadable(() => import('./group/GroupSettingsPanel'));

export const NO_SETTINGS_MESSAGE = 'No settings for your role.';

type TTab = 'mine' | 'group';

/**
 * /setting-page, "Manage preference" (spec-lab §2, §6): the role's settings entries in the spec's
 * order, each opening its dialog; group admins also get the group's settings on a second tab.
 */
export function SettingsPage() {
  const { entries, groupAdmin } = useSettingEntries();
  const [tab, setTab] = useState<TTab>(entries.length > 0 || !groupAdmin ? 'mine' : 'group');

  return (
    <Box component="section">
      <PageHeader title="Manage preference" />
      {groupAdmin && (
        <Tabs value={tab} onChange={(_, next: TTab) => setTab(next)} sx={{ mb: 2 }} aria-label="Settings">
          <Tab value="mine" label="My settings" />
          <Tab value="group" label="Group settings" />
        </Tabs>
      )}
      {tab === 'group' ? (
        <Suspense fallback={null}>
          <GroupSettingsPanel />
        </Suspense>
      ) : entries.length === 0 ? (
        <Typography color="textSecondary">{NO_SETTINGS_MESSAGE}</Typography>
      ) : (
        <EntryCards entries={entries} />
      )}
    </Box>
  );
}

function EntryCards({ entries }: { entries: readonly TSettingEntry[] }) {
  // The page offers these dialogs: their chunks load once it has drawn, so a click opens one at once.
  useEffect(() => preloadSettingDialogs(entries), [entries]);
  return (
    <Box
      component="ul"
      aria-label="Settings entries"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
      }}
    >
      {entries.map((entry) => (
        <li key={entry}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardActionArea onClick={() => openSettingDialog(entry)} sx={{ height: '100%' }}>
              <CardContent>
                <Typography sx={{ fontWeight: 600 }}>{SETTING_ENTRY_LABELS[entry]}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        </li>
      ))}
    </Box>
  );
}

export default SettingsPage;
