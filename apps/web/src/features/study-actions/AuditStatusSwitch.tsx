import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import type { TStudyAuditStatus, TStudyListRow } from '@radflow/core';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useSnackbar } from '../../components/feedback/feedback-context';
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
  const { showError, showInfo } = useSnackbar();
  // The verdict being sent, then the one given, so the switch does not flip back until the list's
  // refetch brings the row (only this auditor changes it).
  const [sending, setSending] = useState<TStudyAuditStatus | null>(null);
  const [given, setGiven] = useState<TStudyAuditStatus | null>(null);
  const shown = sending ?? given ?? row.auditStatus;

  const toggle = async (checked: boolean) => {
    const status: TStudyAuditStatus = checked ? 'APPROVED' : 'REJECTED';
    setSending(status);
    try {
      await setAuditStatus(row.id, status);
      setGiven(status);
      showInfo(status === 'APPROVED' ? 'Audit approved' : 'Audit rejected');
      changed();
    } catch (error) {
      // The API client has shown the refusal already.
      if (!(error instanceof ApiError)) showError(String(error));
    } finally {
      setSending(null);
    }
  };

  return (
    <FormControlLabel
      label={AUDIT_STATUS_TEXT[shown ?? 'NONE']}
      sx={{ whiteSpace: 'nowrap', mr: 0 }}
      control={
        <Switch
          size="small"
          checked={shown === 'APPROVED'}
          disabled={sending !== null}
          onChange={(e) => void toggle(e.target.checked)}
          slotProps={{ input: { 'aria-label': auditSwitchLabel(row.id) } }}
        />
      }
    />
  );
}
