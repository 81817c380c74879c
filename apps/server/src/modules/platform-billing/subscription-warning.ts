import type { TUserPreferences } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { subscriptionExpired } from './subscriptions.js';

/**
 * The group switch `showSubscriptionWarning` as a session reads it (GET /api/user/preference and
 * /api/user/group-preferences): on while the group's subscription is expired, or while a group admin
 * switched it on by hand (DECISIONS.md "The banner"). One read of the group's subscription row.
 */
export async function withSubscriptionWarning<P extends Pick<TUserPreferences, 'GROUP_SWITCHES'>>(
  db: DbOrTx,
  groupId: number,
  now: Date,
  prefs: P,
): Promise<P> {
  const expired = await subscriptionExpired(db, groupId, now);
  if (!expired) return prefs;
  return { ...prefs, GROUP_SWITCHES: { ...prefs.GROUP_SWITCHES, showSubscriptionWarning: true } };
}
