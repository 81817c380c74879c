import AddCircleIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import KeyboardIcon from '@mui/icons-material/KeyboardOutlined';
import KeyboardVoiceIcon from '@mui/icons-material/KeyboardVoiceOutlined';
import NewReleasesIcon from '@mui/icons-material/NewReleasesOutlined';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideoOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { DRAWER_WIDTH, MENU_SECTIONS, menuForUser, type TMenuItem } from '@radflow/core';
import { Suspense, useState, type ReactElement } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { FAQ_PATH } from '@radflow/core';
import { CoachMark } from '../../features/tour/CoachMark';
import type { TTourTarget } from '../../features/tour/tour-steps';
import { useSignedInSession } from '../../features/auth/session';
import { useSignOut } from '../../features/auth/useAuthActions';
import { useInfoDialog } from '../../components/feedback/feedback-context';
import { RouterDownloads, loadRouterOffers } from './download-router';
import { drawerExtras, type TDrawerExtraKey } from './drawer-extras';
import { COPYRIGHT } from './Footer';
import { KeyboardShortcutsDialog } from './KeyboardShortcutsDialog';
import { menuIcon } from './menu-icons';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

// Loaded when first opened: the dialog, its form rules and the upload code stay out of the main chunk.
const CreateStudyDialog = preloadable(() => import('../../features/create-study/CreateStudyDialog'));

const EXTRA_ICONS: Record<TDrawerExtraKey, ReactElement> = {
  'create-study': <AddCircleIcon />,
  'support-videos': <OndemandVideoIcon />,
  'keyboard-shortcut': <KeyboardIcon />,
  'voice-support': <KeyboardVoiceIcon />,
  'new-launch': <NewReleasesIcon />,
  'download-router': <DownloadIcon />,
};

/** The drawer entries the feature tour points at (features/tour). */
const EXTRA_TOUR_TARGETS: Partial<Record<TDrawerExtraKey, TTourTarget>> = {
  'support-videos': 'help',
  'download-router': 'router',
};

/** What the informational extras say. */
const EXTRA_INFO: Record<
  Exclude<TDrawerExtraKey, 'keyboard-shortcut' | 'create-study' | 'download-router' | 'support-videos'>,
  { title: string; message: string }
> = {
  'voice-support': {
    title: 'Voice support',
    message:
      'Doctors and typists dictate reports: turn on Voice typing in Manage preference → Viewer Setting, then press the microphone button in the report editor and speak; the words appear at the cursor. Say "new line", "new paragraph", "full stop" or "comma" for breaks and punctuation. Your group needs speech-to-text enabled by its administrator. Dictation uses the speech recognition of your browser (Chrome or Edge); to leave a spoken note instead, use Audio recordings on the study.',
  },
  'new-launch': {
    title: 'New Launch',
    message:
      'This release: sign-in by password or mobile one-time code, device approval by your group administrator (Audit Logins), and a menu for every role.',
  },
};

function MenuLink({ item, onNavigate }: { item: TMenuItem & { path: string }; onNavigate: () => void }) {
  const isRouter = item.key === 'pacs-router';
  const link = (
    <ListItemButton
      component={NavLink}
      to={item.path}
      end
      onClick={onNavigate}
      sx={isRouter ? { ...navItemSx, flex: 1 } : navItemSx}
      {...(isRouter ? { 'data-tour': 'router' } : {})}
    >
      <ListItemIcon sx={{ minWidth: 32 }}>{menuIcon(item.key)}</ListItemIcon>
      <ListItemText primary={item.label} />
    </ListItemButton>
  );
  if (!isRouter) return link;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', pr: 1 }}>
      {link}
      <CoachMark mark="router" />
    </Box>
  );
}

const navItemSx = {
  borderRadius: 1,
  mx: 1,
  '&.active': { bgcolor: 'action.selected', color: 'primary.main' },
  '&.active .MuiListItemIcon-root': { color: 'primary.main' },
} as const;

/** The drawer's content: the role menu by section, the fixed extras and a copyright line. */
function DrawerContent({
  onNavigate,
  onOpenShortcuts,
  onCreateStudy,
}: {
  onNavigate: () => void;
  onOpenShortcuts: () => void;
  onCreateStudy: () => void;
}) {
  const { menuContext, roles } = useSignedInSession();
  const signOut = useSignOut();
  const showInfo = useInfoDialog();
  const navigate = useNavigate();
  const items = menuForUser(menuContext);

  const openExtra = (key: TDrawerExtraKey) => {
    onNavigate();
    if (key === 'keyboard-shortcut') onOpenShortcuts();
    else if (key === 'create-study') onCreateStudy();
    else if (key === 'support-videos') void navigate(FAQ_PATH);
    else if (key === 'download-router')
      void loadRouterOffers().then((offers) =>
        showInfo({ title: 'Download router', message: <RouterDownloads offers={offers} /> }),
      );
    else void showInfo(EXTRA_INFO[key]);
  };

  return (
    <Box
      component="nav"
      aria-label="Main menu"
      data-tour="menu"
      sx={{ display: 'flex', flexDirection: 'column', flex: 1 }}
    >
      {MENU_SECTIONS.map((section) => {
        const sectionItems = items.filter((i) => i.section === section);
        if (sectionItems.length === 0) return null;
        return (
          <List
            key={section}
            subheader={
              <ListSubheader disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
                {section}
              </ListSubheader>
            }
          >
            {sectionItems.map((item) =>
              item.path ? (
                <MenuLink key={item.key} item={{ ...item, path: item.path }} onNavigate={onNavigate} />
              ) : (
                // The viewer's 'Stop viewing' is an action: it ends the session.
                <ListItemButton key={item.key} onClick={() => void signOut()} sx={navItemSx}>
                  <ListItemIcon sx={{ minWidth: 32 }}>{menuIcon(item.key)}</ListItemIcon>
                  <ListItemText primary={item.label} />
                </ListItemButton>
              ),
            )}
          </List>
        );
      })}
      <Divider sx={{ my: 1 }} />
      <List aria-label="Tools">
        {drawerExtras(roles).map((extra) => (
          <Box key={extra.key} sx={{ display: 'flex', alignItems: 'center', pr: 1 }}>
            <ListItemButton
              onClick={() => openExtra(extra.key)}
              sx={{ ...navItemSx, flex: 1 }}
              {...(EXTRA_TOUR_TARGETS[extra.key] ? { 'data-tour': EXTRA_TOUR_TARGETS[extra.key] } : {})}
            >
              <ListItemIcon sx={{ minWidth: 32 }}>{EXTRA_ICONS[extra.key]}</ListItemIcon>
              <ListItemText primary={extra.label} />
            </ListItemButton>
            {extra.key === 'download-router' && <CoachMark mark="router" />}
          </Box>
        ))}
      </List>
      <Box sx={{ flex: 1 }} />
      <Typography variant="caption" color="textSecondary" sx={{ px: 2, py: 1.5 }}>
        {COPYRIGHT}
      </Typography>
    </Box>
  );
}

/**
 * The side drawer of spec-core §2 Shell (width 240): permanent beside the content on wide screens,
 * a temporary overlay opened from the top bar on narrow ones.
 */
export function SideDrawer({
  permanent,
  open,
  onClose,
}: {
  permanent: boolean;
  open: boolean;
  onClose: () => void;
}) {
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [createStudyOpen, setCreateStudyOpen] = useState(false);
  const paperSx = { width: DRAWER_WIDTH, boxSizing: 'border-box' as const, display: 'flex' };
  const openShortcuts = () => setShortcutsOpen(true);
  const openCreateStudy = () => openWhenLoaded(CreateStudyDialog, () => setCreateStudyOpen(true));
  return (
    <>
      {permanent ? (
        <Drawer
          variant="permanent"
          sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}
          slotProps={{ paper: { sx: paperSx } }}
        >
          <Toolbar />
          <Box sx={{ height: 2 }} />
          <DrawerContent
            onNavigate={() => undefined}
            onOpenShortcuts={openShortcuts}
            onCreateStudy={openCreateStudy}
          />
        </Drawer>
      ) : (
        <Drawer variant="temporary" open={open} onClose={onClose} slotProps={{ paper: { sx: paperSx } }}>
          <DrawerContent
            onNavigate={onClose}
            onOpenShortcuts={openShortcuts}
            onCreateStudy={openCreateStudy}
          />
        </Drawer>
      )}
      <KeyboardShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
      {/* Mounted only while open, so every opening starts from an empty form. */}
      {createStudyOpen && (
        <Suspense fallback={null}>
          <CreateStudyDialog open onClose={() => setCreateStudyOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
