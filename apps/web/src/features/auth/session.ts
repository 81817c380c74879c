import {
  effectiveRoles,
  groupFlags,
  type TCurrentUser,
  type TGroupFlags,
  type TMenuContext,
  type TRole,
  type TUserPreferences,
} from '@radflow/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  fetchCurrentUser,
  fetchGroupPreferences,
  fetchPreferences,
  fetchTeleInfo,
  fetchUserMapping,
  type TUserMapping,
} from '../../api/identity';
import { setDisplayTimeZone } from '../../lib/format';
import { buildMenuContext } from './menu-context';

/** Everything the shell needs about the signed-in user (spec-core §4 Session). */
export interface TSession {
  user: TCurrentUser;
  /** Effective roles: ROLE_OFFLINE_HYBRID alone in hybrid mode. */
  roles: TRole[];
  preferences: TUserPreferences;
  flags: TGroupFlags;
  mapping: TUserMapping;
  teleUser: boolean;
  menuContext: TMenuContext;
}

export const SESSION_QUERY_KEY = ['session'] as const;

/**
 * spec-core §4 Session: fetch the current user; on failure nobody is signed in. Then preferences,
 * user mapping and tele info (assignors skip preferences and mapping: they get the group's switches
 * alone, which their screens follow); a failure of any of these also leaves the app signed out, so
 * the guard sends the user to the login page.
 */
export async function loadSession(signal?: AbortSignal): Promise<TSession | null> {
  let user: TCurrentUser;
  try {
    user = await fetchCurrentUser(signal);
  } catch {
    return null;
  }
  const roles = effectiveRoles(user.roles, user.hybridModeOn);
  const isAssignor = roles.includes('ROLE_ASSIGNOR');
  try {
    const [preferences, mapping, teleInfo] = await Promise.all([
      isAssignor ? fetchGroupPreferences(signal) : fetchPreferences(signal),
      isAssignor ? Promise.resolve({}) : fetchUserMapping(signal),
      fetchTeleInfo(signal),
    ]);
    const flags = groupFlags(preferences);
    setDisplayTimeZone(flags.displayTimeZone);
    return {
      user,
      roles,
      preferences,
      flags,
      mapping,
      teleUser: teleInfo.teleUser,
      menuContext: buildMenuContext(user, preferences, teleInfo),
    };
  } catch {
    return null;
  }
}

export function useSession() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => loadSession(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function getSession(queryClient: QueryClient): TSession | null {
  return queryClient.getQueryData<TSession | null>(SESSION_QUERY_KEY) ?? null;
}

/** Forgets the signed-in user and every cached server answer; the route guard then goes to login. */
export function clearSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_QUERY_KEY[0] });
  queryClient.setQueryData(SESSION_QUERY_KEY, null);
  setDisplayTimeZone(null);
}

/** The session inside the signed-in shell (the route guard renders the shell only with one). */
export function useSignedInSession(): TSession {
  const { data } = useSession();
  if (!data) throw new Error('useSignedInSession used outside the signed-in shell');
  return data;
}
