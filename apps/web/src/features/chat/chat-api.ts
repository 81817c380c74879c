import {
  AUTO_REFRESH_MS,
  ZChatMembers,
  ZChatMessage,
  ZChatMessages,
  ZChatSeenResponse,
  ZChatUnseenCounts,
  type TChatAssignment,
  type TChatMember,
  type TChatMessage,
  type TChatReferenceInput,
} from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';

/**
 * The study chat's calls (spec-core §7; server modules/chat). Query keys: `['chat', id]` is a row's
 * thread, `['chat-unseen', …]` the list page's badges; the live stream (issue 23 §4) invalidates both
 * on a study event, the 25 s refresh is the fallback.
 */
export const chatThreadKey = (reportStatusId: number) => ['chat', reportStatusId] as const;
export const CHAT_UNSEEN_KEY = ['chat-unseen'] as const;
export const chatMembersKey = (reportStatusId: number) => ['chat', reportStatusId, 'members'] as const;

export function fetchThread(reportStatusId: number, signal?: AbortSignal) {
  return apiRequest(`/api/chat-thread/get-messages?threadType=REPORT_CHAT&entityId=${reportStatusId}`, {
    schema: ZChatMessages,
    signal,
    // The panel says it in place.
    quiet: true,
  });
}

export function fetchMembers(
  reportStatusId: number,
  signal?: AbortSignal,
): Promise<{ members: TChatMember[] }> {
  return apiRequest(`/api/chat-thread/members?entityId=${reportStatusId}`, {
    schema: ZChatMembers,
    signal,
    quiet: true,
  });
}

export interface TOutgoingMessage {
  reportStatusId: number;
  /** Whom it is for (spec-core §7 chat assignment options). */
  assignedTo: TChatAssignment;
  message: string;
  mentions: number[];
  reference: TChatReferenceInput | null;
}

/** Quiet: the panel shows a refusal (too long, too many) under the box, keeping the text. */
export function sendChatMessage(out: TOutgoingMessage): Promise<TChatMessage> {
  return apiRequest('/api/chat-thread/send-message', {
    json: {
      messageData: {
        assignedTo: out.assignedTo,
        type: 'COMMENT',
        entityId: out.reportStatusId,
        message: out.message,
        mentions: out.mentions,
        reference: out.reference,
      },
    },
    schema: ZChatMessage,
    quiet: true,
  });
}

export function markThreadSeen(reportStatusId: number) {
  return apiRequest('/api/chat-thread/seen', {
    json: { chatThreadType: 'REPORT_CHAT', entityId: reportStatusId },
    schema: ZChatSeenResponse,
    quiet: true,
  });
}

const NONE: Readonly<Record<string, number>> = {};

/**
 * The unseen messages per row of the page on screen, in one call (like the active-in-viewer call);
 * `countOf` gives a row's count (0 when none).
 */
export function useChatUnseenCounts(
  ids: readonly number[],
  { enabled, autoRefresh }: { enabled: boolean; autoRefresh: boolean },
): { countOf: (id: number) => number } {
  const query = useQuery({
    queryKey: [...CHAT_UNSEEN_KEY, ids],
    queryFn: ({ signal }) =>
      apiRequest('/api/chat-thread/unseen-counts', {
        json: { ids },
        schema: ZChatUnseenCounts,
        signal,
        quiet: true,
      }),
    enabled: enabled && ids.length > 0,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const byId = query.data?.unseen ?? NONE;
  return { countOf: (id) => byId[String(id)] ?? 0 };
}
