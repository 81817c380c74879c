import type { CheckboxProps } from '@mui/material/Checkbox';
import { Suspense } from 'react';
import { preloadable } from '../../lib/preloadable';

// Row checkboxes are drawn for assignors and multi-zip users only (StudyListView): the checkbox loads
// with the first table that has them, not with every list (issue 4 §5 bundle budget).
const Checkbox = preloadable(() => import('@mui/material/Checkbox'));

/** A row or select-all checkbox of the study table (spec-core §2 "Optional row checkboxes"). */
export function RowCheckbox(props: CheckboxProps) {
  return (
    <Suspense fallback={null}>
      <Checkbox {...props} />
    </Suspense>
  );
}
