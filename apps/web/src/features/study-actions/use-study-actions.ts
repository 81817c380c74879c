import { useQuery, useQueryClient } from '@tanstack/react-query';
import { defaultViewerKind, type TStudyListRow } from '@radflow/core';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { STUDIES_QUERY_KEY } from '../../api/archive';
import { fetchUserMapping, type TUserMapping } from '../../api/identity';
import { useSignedInSession } from '../auth/session';
import { useFeedback } from '../../components/feedback/feedback-context';
import { type TActor, type TRowOpenAction, reportEditPath, viewEntryOf, viewerPath } from './row-actions';

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
    hideDeletedSetting: session.flags.hideDeletedStudies,
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

/**
 * Opens a study's images or its report page, as the row's View images and Open report buttons do
 * (and a double click on the row): in a popup with the user's popupViewer preference
 * (popupViewerDoNotFocus keeps the list in front), else in this tab. The images first pass the
 * viewer's entry rule: a refusal is said, not opened; a partial upload opens with its warning.
 */
export function useOpenStudy(): (action: Exclude<TRowOpenAction, 'assign'>, row: TStudyListRow) => void {
  const session = useSignedInSession();
  const navigate = useNavigate();
  const { showError, showInfo } = useFeedback();
  const ui = session.preferences.UI_PREFERENCES;
  return useCallback(
    (action, row) => {
      const openPath = (path: string) => {
        if (ui.popupViewer) {
          const popup = window.open(path, `study-${row.id}`);
          if (popup && ui.popupViewerDoNotFocus) window.focus();
        } else void navigate(path);
      };
      if (action === 'report') {
        openPath(reportEditPath(row));
        return;
      }
      const entry = viewEntryOf(row);
      if (!entry.allowed) {
        showError(entry.message ?? '');
        return;
      }
      if (entry.message) showInfo(entry.message);
      openPath(viewerPath(row, { kind: defaultViewerKind(session.roles), popup: ui.popupViewer }));
    },
    [ui.popupViewer, ui.popupViewerDoNotFocus, navigate, showError, showInfo, session.roles],
  );
}
