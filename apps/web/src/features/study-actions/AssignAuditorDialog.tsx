import { CONFIRMATIONS, formatPersonName } from '@radflow/core';
import type { TStudyDialogProps } from './dialog-props';
import { PickUserDialog } from './PickUserDialog';
import { assignAuditor } from './study-actions.api';

/**
 * Assign an auditor to a signed-off study (spec-core §2 dialog, §7 POST /report-status/auditor-assign),
 * confirmed first (spec-core §4).
 */
export function AssignAuditorDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  return (
    <PickUserDialog
      title="Assign auditor"
      description={`Study ${row.id}, ${formatPersonName(row.patientName)}`}
      role="ROLE_AUDITOR"
      pickerLabel="Auditor"
      submitLabel="Assign"
      initial={row.auditor}
      confirmText={CONFIRMATIONS.assignAuditor.text}
      doneText={(email) => (email ? `Auditor ${email} assigned` : 'Auditor removed')}
      submit={(email) => assignAuditor(row.id, email)}
      onClose={onClose}
      onDone={onChanged}
    />
  );
}

export default AssignAuditorDialog;
