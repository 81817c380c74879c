import { CRITICAL_RESULT_CATEGORY_LABELS, type TCriticalResult } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';

/** Where a result stands, in one line: acknowledged by whom, escalated, or waiting until when. */
export function criticalResultStatusText(result: TCriticalResult): string {
  if (result.state === 'ACKNOWLEDGED' && result.acknowledgedAt) {
    return `Acknowledged by ${result.acknowledgedBy ?? 'someone'} at ${formatTimestamp(result.acknowledgedAt)}`;
  }
  if (result.state === 'ESCALATED' && result.escalatedAt) {
    return `Escalated to the group admins at ${formatTimestamp(result.escalatedAt)}; waiting for acknowledgment`;
  }
  return `Waiting for acknowledgment (escalates at ${formatTimestamp(result.escalationDueAt)})`;
}

/** 'Critical (immediate): <finding>'. */
export function criticalResultTitle(result: Pick<TCriticalResult, 'category' | 'finding'>): string {
  return `${CRITICAL_RESULT_CATEGORY_LABELS[result.category]}: ${result.finding}`;
}

/** Who raised it and when. */
export function criticalResultRaisedText(result: TCriticalResult): string {
  return `Raised by ${result.raisedBy ?? 'a doctor'} at ${formatTimestamp(result.raisedAt)}`;
}
