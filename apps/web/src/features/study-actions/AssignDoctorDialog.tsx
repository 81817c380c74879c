import type { TStudyDialogProps } from './dialog-props';
import { PickUserDialog } from './PickUserDialog';
import { assignDoctor } from './study-actions.api';
import { formatPersonName } from '@radflow/core';

/** Assign one study to a doctor of the group (spec-core §7 POST /report-status/assign). */
export function AssignDoctorDialog({ row, onClose, onChanged }: TStudyDialogProps) {
  return (
    <PickUserDialog
      title="Assign doctor"
      description={`Study ${row.id}, ${formatPersonName(row.patientName)}`}
      role="ROLE_DOCTOR"
      pickerLabel="Doctor"
      submitLabel="Assign"
      initial={row.assignedTo}
      doneText={(email) => (email ? `Study assigned to ${email}` : 'Study unassigned')}
      submit={(email) => assignDoctor(row.id, email)}
      onClose={onClose}
      onDone={onChanged}
    />
  );
}

export default AssignDoctorDialog;
