import ViewInArIcon from '@mui/icons-material/ViewInAr';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import Tooltip from '@mui/material/Tooltip';
import { VIEWER_EXTRA_SHORTCUTS } from '../viewer-shortcuts';
import type { TMprAvailability } from './volume-rule';

/** The MPR key (spec-core §2 leaves it free: 1-6, m, z, l, e, a, y, Home/End and arrows are taken). */
export const MPR_KEY = VIEWER_EXTRA_SHORTCUTS[0]?.keys[0] ?? 'v';

/**
 * The toolbar's MPR toggle: absent for modalities other than CT and MR, disabled with the reason when
 * the series forms no volume, pressed while MPR shows.
 */
export function MprButton({
  availability,
  on,
  onToggle,
}: {
  availability: TMprAvailability;
  on: boolean;
  onToggle: () => void;
}) {
  if (availability.state === 'absent') return null;
  const disabled = availability.state === 'disabled' && !on;
  const title = disabled
    ? availability.reason
    : on
      ? `Back to the stack (${MPR_KEY})`
      : `MPR: axial, sagittal and coronal (${MPR_KEY})`;
  return (
    <Tooltip title={title}>
      {/* A disabled button fires no events: the span carries the tooltip. */}
      <Box component="span" sx={{ display: 'inline-flex' }}>
        <ToggleButton
          size="small"
          value="mpr"
          selected={on}
          disabled={disabled}
          onChange={onToggle}
          aria-label="MPR"
        >
          <ViewInArIcon fontSize="small" sx={{ mr: 0.5 }} />
          MPR
        </ToggleButton>
      </Box>
    </Tooltip>
  );
}
