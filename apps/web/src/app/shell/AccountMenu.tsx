import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import KeyIcon from '@mui/icons-material/Key';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { canUseApiToken, isViewerSession } from '@radflow/core';
import { Suspense, useState } from 'react';
import { useSignedInSession } from '../../features/auth/session';
import { UpdatePasswordDialog } from '../../features/auth/UpdatePasswordDialog';
import { hardRefresh, useSignOut } from '../../features/auth/useAuthActions';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

/** Opened from the menu only: kept out of the list page's bundle (bench/web-bundle.ts budget). */
const ApiTokensDialog = preloadable(() =>
  import('../../features/auth/ApiTokensDialog').then((m) => ({ default: m.ApiTokensDialog })),
);

/**
 * The account menu of spec-core §2 Shell: identifier, email, Hard Refresh, Update Password, Logout.
 * A viewer sees 'Stop viewing' instead of Logout and no identifier or email. Ours: 'API tokens' for the
 * roles that may use DICOMweb clients (core canUseApiToken).
 */
export function AccountMenu() {
  const { user, roles } = useSignedInSession();
  const signOut = useSignOut();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [tokensOpen, setTokensOpen] = useState(false);
  const viewer = isViewerSession(roles);
  const close = () => setAnchor(null);

  return (
    <>
      <IconButton
        aria-label="Account"
        title={viewer ? 'Account' : user.email}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        color="inherit"
      >
        <AccountCircleIcon />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        {!viewer && (
          <Box sx={{ px: 2, py: 1 }} data-testid="account-identity">
            <Typography variant="subtitle2" noWrap>
              {user.identifier}
            </Typography>
            <Typography variant="caption" color="textSecondary" noWrap component="div">
              {user.email}
            </Typography>
          </Box>
        )}
        {!viewer && <Divider />}
        <MenuItem
          onClick={() => {
            close();
            void hardRefresh();
          }}
        >
          <ListItemIcon>
            <RefreshIcon fontSize="small" />
          </ListItemIcon>
          Hard Refresh
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            setPasswordOpen(true);
          }}
        >
          <ListItemIcon>
            <LockResetIcon fontSize="small" />
          </ListItemIcon>
          Update Password
        </MenuItem>
        {canUseApiToken(roles) && (
          <MenuItem
            onClick={() => {
              close();
              openWhenLoaded(ApiTokensDialog, () => setTokensOpen(true));
            }}
          >
            <ListItemIcon>
              <KeyIcon fontSize="small" />
            </ListItemIcon>
            API tokens
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            close();
            void signOut();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {viewer ? 'Stop viewing' : 'Logout'}
        </MenuItem>
      </Menu>
      <UpdatePasswordDialog
        open={passwordOpen}
        onClose={() => setPasswordOpen(false)}
        owner={{ email: user.email, identifier: user.identifier }}
      />
      {tokensOpen && (
        <Suspense fallback={null}>
          <ApiTokensDialog open onClose={() => setTokensOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
