import type { TShareInfo } from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { TAuth } from '../../plugins/auth.js';
import { shareInfoOf } from '../payments/payment-dues.js';

/**
 * GET /api/customer-report/share-info (spec-core §4 Viewer payment, §7): whether the viewer-role
 * session must pay before it reads on — a study shared with the account has a pending payment
 * (payments module, `payment-dues.ts`). Other roles: { false, false }.
 */
export function getShareInfo(ctx: AppContext, auth: TAuth): Promise<TShareInfo> {
  return shareInfoOf(ctx.db, auth);
}
