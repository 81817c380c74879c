import {
  CRITICAL_RESULT_CATEGORIES,
  CRITICAL_RESULT_CATEGORY_LABELS,
  type TCriticalResultCategory,
  type TStudyEvent,
  type TStudyEventType,
  isStudyEventType,
} from '@radflow/core';

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
  // Closed-loop critical results (issue 23 §5).
  CRITICAL_RESULT_RAISED: 'Critical result raised',
  CRITICAL_RESULT_DELIVERED: 'Critical result delivered',
  CRITICAL_RESULT_ACKNOWLEDGED: 'Critical result acknowledged',
  CRITICAL_RESULT_ESCALATED: 'Critical result escalated to the group admins',
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
export function eventDetail(event: Pick<TStudyEvent, 'detail'> & { eventType?: string }): string {
  const detail = event.detail ?? {};
  if (event.eventType?.startsWith('CRITICAL_RESULT_')) return criticalResultDetail(event.eventType, detail);
  const parts: string[] = [];
  for (const key of ['assignedTo', 'auditorEmail', 'auditor', 'splitInto', 'splitFrom']) {
    const value = detail[key];
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
  }
  const changed = detail.changed;
  if (Array.isArray(changed) && changed.length > 0) parts.push(`changed: ${changed.join(', ')}`);
  return parts.join(' · ');
}

/** A critical result's step: its category and finding, the channel and address, who acknowledged, whom it went to. */
function criticalResultDetail(eventType: string, detail: Record<string, unknown>): string {
  const str = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : '');
  const category = str('category');
  const label = isCriticalResultCategory(category) ? CRITICAL_RESULT_CATEGORY_LABELS[category] : category;
  switch (eventType) {
    case 'CRITICAL_RESULT_RAISED':
      return [label, str('finding')].filter(Boolean).join(': ');
    case 'CRITICAL_RESULT_DELIVERED':
      return [str('channel') === 'EMAIL' ? 'E-mail' : str('channel'), str('to')].filter(Boolean).join(' to ');
    case 'CRITICAL_RESULT_ACKNOWLEDGED':
      return str('by');
    case 'CRITICAL_RESULT_ESCALATED':
      return [
        str('to'),
        typeof detail.afterMinutes === 'number' ? `after ${detail.afterMinutes} minutes` : '',
      ]
        .filter(Boolean)
        .join(' · ');
    default:
      return '';
  }
}

const isCriticalResultCategory = (value: string): value is TCriticalResultCategory =>
  (CRITICAL_RESULT_CATEGORIES as readonly string[]).includes(value);
