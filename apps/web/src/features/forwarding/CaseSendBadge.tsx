import Chip from '@mui/material/Chip';
import type { TCaseSendBadge } from '@radflow/core';

const COLORS = { SEND: 'success', IN_PROGRESS: 'info', FAILED: 'error' } as const;

/** spec-core §4 case-send badge: 'Case Send', the in-progress percentage, or 'Case Failed'. */
export function CaseSendBadge({ badge }: { badge: TCaseSendBadge }) {
  if (badge.state === 'NONE') return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[badge.state]}
      label={badge.label}
      aria-label={badge.state === 'IN_PROGRESS' ? `Case sending ${badge.label}` : badge.label}
    />
  );
}
