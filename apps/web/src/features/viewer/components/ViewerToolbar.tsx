import ArrowIcon from '@mui/icons-material/CallMade';
import AngleIcon from '@mui/icons-material/ChangeHistory';
import ContrastIcon from '@mui/icons-material/Contrast';
import EllipseIcon from '@mui/icons-material/RadioButtonUnchecked';
import FlipIcon from '@mui/icons-material/Flip';
import KeyboardIcon from '@mui/icons-material/KeyboardOutlined';
import LaunchIcon from '@mui/icons-material/Launch';
import PanIcon from '@mui/icons-material/OpenWith';
import ResetIcon from '@mui/icons-material/RestartAlt';
import RotateIcon from '@mui/icons-material/RotateRight';
import LengthIcon from '@mui/icons-material/Straighten';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import WindowIcon from '@mui/icons-material/Tonality';
import ZoomIcon from '@mui/icons-material/ZoomIn';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import { EXTERNAL_VIEWER_LABELS, type TExternalViewer } from '@radflow/core';
import { Fragment, useState, type ReactElement, type ReactNode } from 'react';
import { CoachMark } from '../../tour/CoachMark';
import { LAYOUTS, type TLayoutKey } from '../layout';
import { DRAWING_TOOLS, TOOL_KEYS, type TToolKey } from '../viewer-keys';
import { WINDOW_PRESETS } from '../viewer-shortcuts';

const TOOLS: { key: TToolKey; label: string; icon: ReactElement }[] = [
  { key: 'windowLevel', label: 'Window level (left drag)', icon: <WindowIcon fontSize="small" /> },
  { key: 'pan', label: 'Pan', icon: <PanIcon fontSize="small" /> },
  { key: 'zoom', label: 'Zoom', icon: <ZoomIcon fontSize="small" /> },
  { key: 'length', label: 'Length', icon: <LengthIcon fontSize="small" /> },
  { key: 'ellipse', label: 'Ellipse', icon: <EllipseIcon fontSize="small" /> },
  { key: 'angle', label: 'Angle', icon: <AngleIcon fontSize="small" /> },
  { key: 'arrow', label: 'Arrow annotation', icon: <ArrowIcon fontSize="small" /> },
];

const withKey = (label: string, key: string | undefined) => (key ? `${label} (${key})` : label);

export type TViewAction = 'invert' | 'rotate' | 'flipH' | 'flipV' | 'reset';

/** The viewer's toolbar: the same tools and presets as the keys, each tooltip naming its key. */
export function ViewerToolbar({
  tool,
  canAnnotate,
  layout,
  isKeyImage,
  canMarkKeyImage,
  openInWeasis,
  externalViewers,
  onTool,
  onPreset,
  onView,
  onLayout,
  onToggleKeyImage,
  onShortcuts,
  onWeasis,
  onExternalViewer,
  mprButton,
}: {
  tool: TToolKey;
  canAnnotate: boolean;
  layout: TLayoutKey;
  isKeyImage: boolean;
  canMarkKeyImage: boolean;
  openInWeasis: boolean;
  /** Desktop viewers the user may open the study in (core externalViewersOf). */
  externalViewers: readonly TExternalViewer[];
  onTool: (tool: TToolKey) => void;
  onPreset: (index: number) => void;
  onView: (action: TViewAction) => void;
  onLayout: (layout: TLayoutKey) => void;
  onToggleKeyImage: () => void;
  onShortcuts: () => void;
  onWeasis: () => void;
  onExternalViewer: (viewer: TExternalViewer) => void;
  /** The MPR toggle (mpr/MprButton), beside the layouts. */
  mprButton?: ReactNode;
}) {
  const [presetAnchor, setPresetAnchor] = useState<HTMLElement | null>(null);
  const tools = TOOLS.filter((t) => canAnnotate || !DRAWING_TOOLS.includes(t.key));
  const viewButton = (action: TViewAction, label: string, icon: ReactElement) => (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={() => onView(action)}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Stack
      direction="row"
      role="toolbar"
      aria-label="Viewer tools"
      sx={{
        alignItems: 'center',
        gap: 0.5,
        px: 1,
        py: 0.5,
        // One row of fixed height (viewer-geometry.ts): a narrow window scrolls the tools sideways
        // instead of wrapping them onto a second row, which would move the images down.
        flexWrap: 'nowrap',
        overflowX: 'auto',
        scrollbarWidth: 'thin',
        '& > *': { flexShrink: 0 },
      }}
    >
      <ToggleButtonGroup
        size="small"
        exclusive
        value={tool}
        onChange={(_, value: TToolKey | null) => value && onTool(value)}
        aria-label="Mouse tool"
      >
        {tools.map((t) => (
          <ToggleButton key={t.key} value={t.key} aria-label={t.label}>
            <Tooltip title={withKey(t.label, TOOL_KEYS[t.key])}>{t.icon}</Tooltip>
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Button size="small" onClick={(e) => setPresetAnchor(e.currentTarget)} aria-haspopup="menu">
        Presets
      </Button>
      <Menu anchorEl={presetAnchor} open={presetAnchor !== null} onClose={() => setPresetAnchor(null)}>
        {WINDOW_PRESETS.map((p, index) => (
          <MenuItem
            key={p.key}
            onClick={() => {
              setPresetAnchor(null);
              onPreset(index);
            }}
          >
            {p.key}. {p.name} ({p.width}/{p.level})
          </MenuItem>
        ))}
      </Menu>
      <Divider orientation="vertical" flexItem />
      {viewButton('invert', 'Invert', <ContrastIcon fontSize="small" />)}
      {viewButton('rotate', 'Rotate 90°', <RotateIcon fontSize="small" />)}
      {viewButton('flipH', 'Flip horizontal', <FlipIcon fontSize="small" />)}
      {viewButton(
        'flipV',
        'Flip vertical',
        <FlipIcon fontSize="small" sx={{ transform: 'rotate(90deg)' }} />,
      )}
      {viewButton('reset', 'Reset', <ResetIcon fontSize="small" />)}
      <Divider orientation="vertical" flexItem />
      <ToggleButtonGroup
        size="small"
        exclusive
        value={layout}
        onChange={(_, value: TLayoutKey | null) => value && onLayout(value)}
        aria-label="Layout"
      >
        {(Object.keys(LAYOUTS) as TLayoutKey[]).map((key) => (
          <ToggleButton key={key} value={key} aria-label={`Layout ${LAYOUTS[key].label}`}>
            {LAYOUTS[key].label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {mprButton}
      {canMarkKeyImage && (
        <Tooltip title={isKeyImage ? 'Unmark key image' : 'Mark key image'}>
          <IconButton
            size="small"
            aria-label="Key image"
            aria-pressed={isKeyImage}
            onClick={onToggleKeyImage}
          >
            {isKeyImage ? <StarIcon fontSize="small" color="warning" /> : <StarBorderIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title="Keyboard Shortcut">
        <IconButton size="small" aria-label="Keyboard Shortcut" onClick={onShortcuts}>
          <KeyboardIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {openInWeasis && (
        <>
          <Button size="small" startIcon={<LaunchIcon />} onClick={onWeasis}>
            Open in Weasis
          </Button>
          <CoachMark mark="weasis" />
        </>
      )}
      {externalViewers.map((viewer) => (
        <Fragment key={viewer}>
          <Button size="small" startIcon={<LaunchIcon />} onClick={() => onExternalViewer(viewer)}>
            {EXTERNAL_VIEWER_LABELS[viewer]}
          </Button>
          {viewer === 'RADIANT' && <CoachMark mark="radiant" />}
        </Fragment>
      ))}
    </Stack>
  );
}
