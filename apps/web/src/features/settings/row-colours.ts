import type { TUserPreferences } from '@radflow/core';

type TTablePreferences = TUserPreferences['UI_REPORT_TABLE_PREFERENCES'];
export type TRowColourField = Exclude<keyof TTablePreferences, 'openInRadiantPath'>;

/** The row colours of spec-lab §3 "study table preferences", in the spec's order. */
export const ROW_COLOUR_FIELDS: readonly { field: TRowColourField; label: string }[] = [
  { field: 'createdColor', label: 'Created' },
  { field: 'urgentColor', label: 'Urgent' },
  { field: 'assignedToOtherColor', label: 'Assigned to someone else' },
  { field: 'lockedColor', label: 'Locked' },
  { field: 'signedOffColor', label: 'Signed off' },
];
