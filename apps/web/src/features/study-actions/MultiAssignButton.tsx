import GroupAddIcon from '@mui/icons-material/GroupAddOutlined';
import Button from '@mui/material/Button';
import { canAssignMulti } from '@radflow/core';
import { Suspense, useState } from 'react';
import { MultiAssignDialog } from './lazy-dialogs';
import { useActor, useStudiesChanged } from './use-study-actions';

/**
 * Assign the selected studies to one doctor (spec-core §6 "Multi-assign: ROLE_ASSIGNOR only"; §7
 * POST /report-status/assign-multi). Nothing for other roles; disabled with no row selected.
 */
export function MultiAssignButton({ selectedIds, onDone }: { selectedIds: number[]; onDone: () => void }) {
  const actor = useActor();
  const done = useStudiesChanged(onDone);
  const [open, setOpen] = useState(false);
  if (!canAssignMulti(actor)) return null;
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<GroupAddIcon />}
        aria-label="Assign selected studies"
        disabled={selectedIds.length === 0}
        onClick={() => setOpen(true)}
      >
        Assign doctor ({selectedIds.length})
      </Button>
      {open && (
        <Suspense fallback={null}>
          <MultiAssignDialog selectedIds={selectedIds} onClose={() => setOpen(false)} onDone={done} />
        </Suspense>
      )}
    </>
  );
}
