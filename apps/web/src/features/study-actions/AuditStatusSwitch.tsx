import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import type { TStudyAuditStatus, TStudyListRow } from '@radflow/core';
import { useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { useServerCall } from '../../lib/server-call';
import { AUDIT_STATUS_TEXT, auditSwitchLabel } from './audit-status';
import { setAuditStatus } from './study-actions.api';
import { useStudiesChanged } from './use-study-actions';

/**
 * The audit approve/reject switch of the audit column (spec-core §2 "audit columns (including an
 * approve/reject switch)", §4 "Audit approval: APPROVED or REJECTED via a switch"), drawn for the
 * study's assigned auditor (AuditStatusCell decides). On is APPROVED, off is REJECTED; a study not
 * audited yet shows off with 'Not audited', so its first turn approves (a switch has two positions;
 * the spec gives it no third). The spec asks no confirmation for it. Owns its call, its toast and
 * the list refresh.
 */
export default function AuditStatusSwitch({ row, onChanged }: { row: TStudyListRow; onChanged: () => void }) {
  const changed = useStudiesChanged(onChanged);
  const { showInfo } = useSnackbar();
  // The verdict being sent, then the one given, so the switch does not flip back until the list's
  // refetch brings the row (only this auditor changes it).
  const [given, setGiven] = useState<TStudyAuditStatus | null>(null);
  const send = useServerCall({
    mutationFn: (status: TStudyAuditStatus) => setAuditStatus(row.id, status),
    onSuccess: (_answer, status) => {
      setGiven(status);
      showInfo(status === 'APPROVED' ? 'Audit approved' : 'Audit rejected');
      changed();
    },
  });
  const sending = send.isPending ? send.variables : null;
  const shown = sending ?? given ?? row.auditStatus;

  const toggle = (checked: boolean) => send.mutate(checked ? 'APPROVED' : 'REJECTED');

  return (
    <FormControlLabel
      label={AUDIT_STATUS_TEXT[shown ?? 'NONE']}
      sx={{ whiteSpace: 'nowrap', mr: 0 }}
      control={
        <Switch
          size="small"
          checked={shown === 'APPROVED'}
          disabled={sending !== null}
          onChange={(e) => toggle(e.target.checked)}
          slotProps={{ input: { 'aria-label': auditSwitchLabel(row.id) } }}
        />
      }
    />
  );
}
