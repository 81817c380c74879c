import { canManageGroupSettings, settingEntriesOf, type TSettingEntry } from '@radflow/core';
import { useMemo } from 'react';
import { useSignedInSession } from '../auth/session';

/**
 * The signed-in user's settings entries in the spec's order (the group switches matter: a doctor's
 * forwarding PACS needs addForwardingPacsFeature), and whether they also manage the group.
 */
export function useSettingEntries(): { entries: TSettingEntry[]; groupAdmin: boolean } {
  const { roles, flags } = useSignedInSession();
  return useMemo(
    () => ({ entries: settingEntriesOf(roles, flags), groupAdmin: canManageGroupSettings(roles) }),
    [roles, flags],
  );
}
