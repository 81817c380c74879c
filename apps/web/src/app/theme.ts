import { createTheme, type ThemeOptions } from '@mui/material/styles';

/**
 * The system's 'reduce motion' setting (WCAG 2.3.3), read once at startup: dialogs, menus, drawers
 * and toasts then appear and leave without animating, and buttons without their ripple. A change of
 * the setting applies from the next load.
 */
const prefersReducedMotion =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

const NO_MOTION: ThemeOptions['transitions'] = {
  create: () => 'none',
  getAutoHeightDuration: () => 0,
  duration: {
    shortest: 0,
    shorter: 0,
    short: 0,
    standard: 0,
    complex: 0,
    enteringScreen: 0,
    leavingScreen: 0,
  },
};

/**
 * The dark theme of spec-core §1 with base font size 12: compact controls so a worklist shows many
 * rows, calm navy surfaces that do not glare in a reading room, and one clear accent colour.
 */
export const theme = createTheme({
  palette: {
    mode: 'dark',
    primary: { main: '#38bdf8', contrastText: '#04131f' },
    secondary: { main: '#5eead4' },
    background: { default: '#0b1220', paper: '#111a2b' },
    divider: 'rgba(148, 163, 184, 0.16)',
    text: { primary: '#e2e8f0', secondary: '#94a3b8' },
  },
  typography: {
    fontSize: 12,
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.5rem', fontWeight: 600 },
    h2: { fontSize: '1.25rem', fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  shape: { borderRadius: 6 },
  ...(prefersReducedMotion ? { transitions: NO_MOTION } : {}),
  components: {
    ...(prefersReducedMotion ? { MuiButtonBase: { defaultProps: { disableRipple: true } } } : {}),
    MuiButton: { defaultProps: { size: 'small', disableElevation: true } },
    MuiIconButton: { defaultProps: { size: 'small' } },
    MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
    MuiFormControl: { defaultProps: { size: 'small' } },
    MuiTable: { defaultProps: { size: 'small' } },
    MuiList: { defaultProps: { dense: true } },
    MuiMenuItem: { defaultProps: { dense: true } },
    MuiToolbar: { defaultProps: { variant: 'dense' } },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'default' },
      styleOverrides: {
        root: ({ theme: t }) => ({
          backgroundColor: '#0e1729',
          backgroundImage: 'none',
          borderBottom: `1px solid ${t.palette.divider}`,
        }),
      },
    },
    MuiDrawer: {
      styleOverrides: { paper: { backgroundColor: '#0e1729', backgroundImage: 'none' } },
    },
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiTableCell: {
      styleOverrides: { head: { fontWeight: 600, whiteSpace: 'nowrap' } },
    },
  },
});
