import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { fetchUserMapping, type TUserMapping } from '../../api/identity';
import { useSignedInSession } from '../auth/session';
import type { TActor } from './row-actions';

/** The rule facts of the signed-in user (roles, group switches, tele flag, own preferences). */
export function useActor(): TActor {
  const session = useSignedInSession();
  return {
    roles: session.roles,
    flags: session.flags,
    teleUser: session.teleUser,
    email: session.user.email,
    centerId: session.user.centerId,
    hideReportButton: session.preferences.UI_PREFERENCES.hideStudyListReportButton,
  };
}

/**
 * After a change: every study list refetches (spec-core §7 "the page reloads afterwards"), the open
 * study's details too, and the caller's own refresh runs.
 */
export function useStudiesChanged(onChanged: () => void): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: STUDIES_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: ['study-history'] });
    onChanged();
  }, [queryClient, onChanged]);
}

export const USER_MAPPING_QUERY_KEY = ['user-mapping'] as const;

/**
 * The users of one role from the user map (spec-core §3 User mapping), active ones only. The session
 * holds the map, except for assignors, who skip it at sign-in (spec-core §4 Session) yet pick doctors
 * to assign: for them it is fetched when a picker opens.
 */
export function useRoleUsers(role: string): { emails: string[]; isPending: boolean } {
  const session = useSignedInSession();
  const fromSession = Object.keys(session.mapping).length > 0 ? session.mapping : undefined;
  const query = useQuery<TUserMapping>({
    queryKey: USER_MAPPING_QUERY_KEY,
    queryFn: ({ signal }) => fetchUserMapping(signal),
    enabled: !fromSession,
    staleTime: 5 * 60_000,
  });
  const mapping = fromSession ?? query.data;
  return {
    emails: activeEmails(mapping, role),
    isPending: !mapping && query.isPending,
  };
}

/** The active users' e-mails of a role in the user map, sorted, each once. */
export function activeEmails(mapping: TUserMapping | undefined, role: string): string[] {
  const users = mapping?.[role] ?? [];
  return [...new Set(users.filter((u) => u.active).map((u) => u.email))].sort((a, b) => a.localeCompare(b));
}
