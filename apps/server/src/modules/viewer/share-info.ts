import type { TShareInfo } from '@radflow/core';
import type { TAuth } from '../../plugins/auth.js';

/**
 * GET /api/customer-report/share-info (spec-core §4 Viewer payment, §7): whether the viewer-role
 * session must pay before it reads on. Nothing records a payment for a shared study yet (no table,
 * no payment field on report_statuses): every session is answered { false, false } until the
 * lab/billing issue records payments and fills this in (DECISIONS.md).
 */
export function getShareInfo(_auth: TAuth): TShareInfo {
  return { paymentNotDone: false, paymentPolling: false };
}
