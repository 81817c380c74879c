import { and, arrayContains, eq, isNull, sql } from 'drizzle-orm';
import type { TGettingStarted } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { centers, preferences, studies, users } from '../../db/schema.js';

/**
 * GET /api/group/getting-started: the steps of a new group's checklist, each done or not, for the
 * caller's group: a center (studies arrive through a center's AE title), a radiologist (an account
 * with ROLE_DOCTOR), a study, and billing details saved by one of the group's own accounts (the
 * tier invoices read first, lab-documents loadLabLetterhead). One round trip of four EXISTS.
 */
export async function loadGettingStarted(db: DbOrTx, groupId: number): Promise<TGettingStarted> {
  const exists = (query: { getSQL(): ReturnType<typeof sql> }) => sql<boolean>`exists (${query})`;
  const [row] = await db
    .select({
      hasCenter: exists(
        db
          .select({ one: sql`1` })
          .from(centers)
          .where(eq(centers.groupId, groupId)),
      ),
      hasRadiologist: exists(
        db
          .select({ one: sql`1` })
          .from(users)
          .where(and(eq(users.groupId, groupId), arrayContains(users.roles, ['ROLE_DOCTOR']))),
      ),
      hasStudy: exists(
        db
          .select({ one: sql`1` })
          .from(studies)
          .where(eq(studies.groupId, groupId)),
      ),
      hasBillingDetails: exists(
        db
          .select({ one: sql`1` })
          .from(preferences)
          .innerJoin(users, and(eq(preferences.scope, 'USER'), eq(users.id, preferences.ownerId)))
          .where(
            and(
              eq(users.groupId, groupId),
              isNull(users.centerId),
              eq(preferences.section, 'BILLING_DETAILS'),
            ),
          ),
      ),
    })
    .from(sql`(select 1) as one`);
  return {
    hasCenter: Boolean(row?.hasCenter),
    hasRadiologist: Boolean(row?.hasRadiologist),
    hasStudy: Boolean(row?.hasStudy),
    hasBillingDetails: Boolean(row?.hasBillingDetails),
  };
}
