import type { TStudyListRow } from '@radflow/core';
import { Suspense } from 'react';
import { AUDIT_STATUS_TEXT, offersAuditSwitch } from './audit-status';
import { useActor } from './use-study-actions';
import { preloadable } from '../../lib/preloadable';

// Only auditors get the switch: it loads with the first row that needs it, outside the list's chunk.
const AuditStatusSwitch = preloadable(() => import('./AuditStatusSwitch'));

/**
 * The audit approve/reject column (spec-core §2 audit columns): the switch for the study's assigned
 * auditor on a signed-off study (core canSetAuditStatus), the verdict as text for everyone else.
 */
export function AuditStatusCell({ row, onChanged }: { row: TStudyListRow; onChanged: () => void }) {
  const actor = useActor();
  const text = row.auditStatus ? AUDIT_STATUS_TEXT[row.auditStatus] : '—';
  if (!offersAuditSwitch(actor, row)) return <>{text}</>;
  return (
    <Suspense fallback={text}>
      <AuditStatusSwitch row={row} onChanged={onChanged} />
    </Suspense>
  );
}
