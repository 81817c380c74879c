import PaymentsIcon from '@mui/icons-material/PaymentsOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { type TStudyListRow, canManageStudyPayment } from '@radflow/core';
import { Suspense, useState } from 'react';
import { useSignedInSession } from '../auth/session';
import { useStudiesChanged } from '../study-actions/use-study-actions';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

const StudyPaymentDialog = preloadable(() => import('./StudyPaymentDialog'));

/**
 * The row's Payment action (issue 5 §1 Viewer payment, staff side): shown to those core
 * canManageStudyPayment allows — the rule the server answers 403 with — and opens the payment dialog.
 */
export function PaymentRowAction({ row, onChanged }: { row: TStudyListRow; onChanged: () => void }) {
  const session = useSignedInSession();
  const changed = useStudiesChanged(onChanged);
  const [open, setOpen] = useState(false);
  const allowed = canManageStudyPayment({
    roles: session.roles,
    row: { status: row.status, centerId: row.centerId ?? null },
    userCenterId: session.user.centerId ?? null,
  });
  if (!allowed) return null;
  return (
    <>
      <Tooltip title="Payment">
        <IconButton
          size="small"
          aria-label={`Payment for study ${row.id}`}
          onClick={() => openWhenLoaded(StudyPaymentDialog, () => setOpen(true))}
        >
          <PaymentsIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <StudyPaymentDialog row={row} onClose={() => setOpen(false)} onChanged={changed} />
        </Suspense>
      )}
    </>
  );
}
