import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { BrandSettings } from '../../brand/BrandSettings';
import { useUserPreferences } from '../settings-api';
import { GroupChangesList } from './GroupChangesList';
import { GroupSettingRow } from './GroupSettingRow';
import {
  GROUP_PANEL_SECTIONS,
  GROUP_SECTION_TITLES,
  buildGroupFields,
  currentValue,
  filterGroupFields,
} from './group-fields';

export const NO_MATCHING_SETTING = 'No setting matches the filter.';

/**
 * The group switches screen (settings issue §3): every field of the group's three sections with its
 * explanation and an editor, a filter box, and the group's recent changes below. Group admins only
 * (SettingsPage renders it for canManageGroupSettings; the server refuses everyone else).
 */
export default function GroupSettingsPanel() {
  const preferences = useUserPreferences();
  const [query, setQuery] = useState('');
  const allFields = useMemo(() => buildGroupFields(), []);
  const shown = useMemo(() => filterGroupFields(allFields, query), [allFields, query]);

  return (
    <Stack spacing={3} data-testid="group-settings-panel">
      <BrandSettings />
      <TextField
        type="search"
        size="small"
        label="Filter settings"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        sx={{ maxWidth: '28rem' }}
      />
      {shown.length === 0 ? <Typography color="text.secondary">{NO_MATCHING_SETTING}</Typography> : null}
      {GROUP_PANEL_SECTIONS.map((section) => {
        const rows = shown.filter((f) => f.section === section);
        if (rows.length === 0) return null;
        const headingId = `group-section-${section}`;
        return (
          <Paper
            key={section}
            component="section"
            aria-labelledby={headingId}
            variant="outlined"
            sx={{ p: 2 }}
          >
            <Typography id={headingId} variant="h6" component="h2">
              {GROUP_SECTION_TITLES[section]}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
              {section}
            </Typography>
            <Stack divider={<Divider flexItem />} sx={{ mt: 1 }}>
              {rows.map((f) => (
                <GroupSettingRow key={f.field} field={f} value={currentValue(preferences, f)} />
              ))}
            </Stack>
          </Paper>
        );
      })}
      <GroupChangesList />
    </Stack>
  );
}
