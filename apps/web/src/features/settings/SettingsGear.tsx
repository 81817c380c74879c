import { SETTING_ENTRY_LABELS } from '@radflow/core';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { SettingDialogHost } from './SettingDialogHost';
import { openSettingDialog, preloadSettingDialogs } from './setting-dialog-store';
import { useSettingEntries } from './useSettingEntries';

/**
 * The top bar's gear: the user's settings entries as a menu (no entries: no gear), and the dialog
 * host. spec-core §2 hides the setting *page* from tele users' drawer; the gear stays, since
 * spec-lab §6 gives tele radiology and billers their billing details and table columns.
 */
export function SettingsGear() {
  const { entries } = useSettingEntries();
  const hasGear = entries.length > 0;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  return (
    <>
      {hasGear && (
        <>
          <IconButton
            color="inherit"
            aria-label="Settings"
            title="Settings"
            aria-haspopup="menu"
            aria-controls={anchor ? menuId : undefined}
            aria-expanded={anchor ? true : undefined}
            onClick={(e) => {
              setAnchor(e.currentTarget);
              // The menu offers these dialogs: load them while it is read.
              preloadSettingDialogs(entries);
            }}
          >
            <SettingsIcon />
          </IconButton>
          <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
            {entries.map((entry) => (
              <MenuItem
                key={entry}
                onClick={() => {
                  setAnchor(null);
                  openSettingDialog(entry);
                }}
              >
                {SETTING_ENTRY_LABELS[entry]}
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
      <SettingDialogHost />
    </>
  );
}
