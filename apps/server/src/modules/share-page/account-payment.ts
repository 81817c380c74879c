import { and, arrayOverlaps, asc, eq } from 'drizzle-orm';
import type { TAccountPayment } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { paymentDuesOf, shareInfoOf } from '../payments/payment-dues.js';

/** How many group administrators the page names (a group has one or two; a list is not the point). */
const ADMINS_SHOWN = 5;

/**
 * GET /api/customer-report/payment-info: what the viewer's payment page (`/share?link={email}`,
 * spec-core §4 Viewer payment) shows — whether a payment is due, decided exactly as share-info
 * decides it for this session, what is due with the provider's pay links, and who to contact: the
 * deployment's support and the group's active administrators. Viewer accounts only (the route checks
 * the role).
 */
export async function getAccountPayment(ctx: AppContext, auth: TAuth): Promise<TAccountPayment> {
  const [shareInfo, dues] = await Promise.all([shareInfoOf(ctx.db, auth), paymentDuesOf(ctx.db, auth)]);
  const admins = await ctx.db
    .select({ name: users.identifier, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.groupId, auth.user.groupId),
        eq(users.active, true),
        arrayOverlaps(users.roles, ['ROLE_ADMIN', 'ROLE_GROUP']),
      ),
    )
    .orderBy(asc(users.identifier), asc(users.id))
    .limit(ADMINS_SHOWN);
  return {
    paymentNotDone: shareInfo.paymentNotDone,
    dues,
    support: ctx.support,
    groupAdmins: admins,
  };
}
