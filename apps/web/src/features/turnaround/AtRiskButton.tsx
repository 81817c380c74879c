import ScheduleIcon from '@mui/icons-material/Schedule';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import type { TTurnaroundAtRiskRow } from '@radflow/core';
import { Suspense, useState } from 'react';
import { timeLeftText } from './turnaround-api';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

// Loaded when first opened: the list's first load stays within its bundle budget (bench/web-bundle.ts).
const AtRiskPanel = preloadable(() => import('./AtRiskPanel'));

/** The study list's 'At risk' button with its count (issue 24 §4); opens the at-risk list. */
export function AtRiskButton({ count, rows }: { count: number; rows: readonly TTurnaroundAtRiskRow[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Badge badgeContent={count} color="error" max={999} showZero={false}>
        <Button
          color="inherit"
          startIcon={<ScheduleIcon />}
          onClick={() => openWhenLoaded(AtRiskPanel, () => setOpen(true))}
          aria-label={`At risk: ${count}`}
        >
          At risk
        </Button>
      </Badge>
      {open && (
        <Suspense fallback={null}>
          <AtRiskPanel count={count} rows={rows} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** A study list row's mark when the at-risk list holds it: its time left, amber, or red once late. */
export function AtRiskMark({ row }: { row: TTurnaroundAtRiskRow }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={row.state === 'BREACHED' ? 'error' : 'warning'}
      label={timeLeftText(row.timeLeftMinutes)}
      data-testid={`at-risk-mark-${row.id}`}
    />
  );
}
