import { PickUserDialog } from './PickUserDialog';
import { assignDoctorMulti } from './study-actions.api';

/** The multi-assign doctor picker (spec-core §2, §6 ROLE_ASSIGNOR only; §7 assign-multi). */
export function MultiAssignDialog({
  selectedIds,
  onClose,
  onDone,
}: {
  selectedIds: number[];
  onClose: () => void;
  onDone: () => void;
}) {
  const count = selectedIds.length;
  return (
    <PickUserDialog
      title="Assign doctor"
      description={`${count} ${count === 1 ? 'study' : 'studies'} selected`}
      role="ROLE_DOCTOR"
      pickerLabel="Doctor"
      submitLabel="Assign"
      initial={null}
      doneText={(email) => (email ? `${count} assigned to ${email}` : `${count} unassigned`)}
      submit={(email) => assignDoctorMulti(selectedIds, email)}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

export default MultiAssignDialog;
