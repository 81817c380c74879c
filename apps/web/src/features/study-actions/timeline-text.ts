import { type TStudyEvent, type TStudyEventType, isStudyEventType } from '@radflow/core';

/** Display names of the statuses (spec-core §4: HISTORY_CREATED is displayed as SENT). */
const STATUS_LABELS: Record<string, string> = { HISTORY_CREATED: 'SENT' };
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;

/**
 * What a timeline event type says, keyed by core's event union (a misspelt type does not compile);
 * a type without a label here, or a stored name this version does not know, is shown as its words.
 */
const EVENT_LABELS: Partial<Record<TStudyEventType, string>> = {
  DETAILS_UPDATED: 'Details updated',
  SENT_FOR_REPORTING: 'Sent for reporting',
  STUDY_PARTS_UPDATED: 'Study type updated',
  URGENT_MARKED: 'Marked urgent',
  URGENT_UNMARKED: 'Urgent mark removed',
  DELETED: 'Study deleted',
  SPLIT: 'Study split',
  SPLIT_CREATED: 'Created by splitting a study',
  UNLOCKED: 'Report unlocked',
  REWORKED: 'Reworked (all reports deleted)',
  ASSIGNED: 'Assigned',
  UNASSIGNED: 'Unassigned',
  AUDITOR_ASSIGNED: 'Auditor assigned',
  AUDITOR_UNASSIGNED: 'Auditor removed',
  AUDIT_APPROVED: 'Audit approved',
  AUDIT_REJECTED: 'Audit rejected',
  // The archive's (DECISIONS.md "instance ownership").
  NEW_IMAGES_AFTER_SIGN_OFF: 'New images after sign-off',
  FOREIGN_IMAGES_REFUSED: "Another center's images refused",
};

export function eventLabel(eventType: string): string {
  const known = isStudyEventType(eventType) ? EVENT_LABELS[eventType] : undefined;
  if (known) return known;
  const words = eventType.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Who acted: the user's name, else their e-mail, else the label of a non-user actor (an AE title). */
export function eventActor(event: Pick<TStudyEvent, 'actorName' | 'actorEmail' | 'actorLabel'>): string {
  return event.actorName || event.actorEmail || event.actorLabel || 'System';
}

/** The status change of an event ('CREATED → SENT'), or '' when the status did not change. */
export function eventStatusChange(event: Pick<TStudyEvent, 'fromStatus' | 'toStatus'>): string {
  if (!event.toStatus || event.toStatus === event.fromStatus) return '';
  return event.fromStatus
    ? `${statusLabel(event.fromStatus)} → ${statusLabel(event.toStatus)}`
    : statusLabel(event.toStatus);
}

/** The extra fact of an event worth a line: whom it was assigned to, which fields changed. */
export function eventDetail(event: Pick<TStudyEvent, 'detail'>): string {
  const detail = event.detail ?? {};
  const parts: string[] = [];
  for (const key of ['assignedTo', 'auditorEmail', 'auditor', 'splitInto', 'splitFrom']) {
    const value = detail[key];
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
  }
  const changed = detail.changed;
  if (Array.isArray(changed) && changed.length > 0) parts.push(`changed: ${changed.join(', ')}`);
  return parts.join(' · ');
}
