import { CONFIRMATIONS, type TConfirmedAction, type TStudyListRow } from '@radflow/core';
import type { TStateAction } from './study-actions.api';
import type { TStateActionKey } from './row-actions';

/**
 * The five state actions of spec-core §4 (urgent, delete, split, unlock, rework): the call each
 * makes, the confirmation it asks first (core CONFIRMATIONS) and the info toast after it. The spec
 * shows no toast text for these (§8 lists the attachment and details toasts), so the toasts are ours.
 */
export interface TStateActionSpec {
  call: TStateAction;
  confirmation: TConfirmedAction;
  /** `answer` is the call's answer: the row after the change (for split, the new row). */
  doneText: (row: Pick<TStudyListRow, 'urgent'>, answer?: unknown) => string;
}

export const STATE_ACTIONS: Record<TStateActionKey, TStateActionSpec> = {
  urgent: {
    call: 'urgent',
    confirmation: 'markUrgent',
    // The call toggles the mark (core canMarkUrgent): the toast names what happened to this row.
    doneText: (row) => (row.urgent ? 'Urgent mark removed' : 'Study marked urgent'),
  },
  delete: { call: 'mark-delete', confirmation: 'markDeleted', doneText: () => 'Study deleted' },
  split: {
    call: 'split',
    confirmation: 'split',
    doneText: (_row, answer) => {
      const id = (answer as { id?: unknown } | null)?.id;
      return typeof id === 'number' ? `Study split: new study ${id}` : 'Study split';
    },
  },
  unlock: { call: 'unlock', confirmation: 'unlock', doneText: () => 'Report unlocked' },
  rework: { call: 'rework', confirmation: 'rework', doneText: () => 'Study sent for rework' },
};

export function confirmTextOf(key: TStateActionKey): string {
  return CONFIRMATIONS[STATE_ACTIONS[key].confirmation].text;
}
