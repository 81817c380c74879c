import {
  type TSupportThread,
  type TSupportThreadSummary,
  ZSupportThread,
  ZSupportThreadList,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

export const SUPPORT_CHAT_QUERY_KEY = ['support-chat'] as const;

/** GET /api/support-chat: the signed-in user's thread with support. */
export function fetchSupportThread(signal?: AbortSignal): Promise<TSupportThread> {
  return apiRequest('/api/support-chat', { signal, schema: ZSupportThread });
}

/** POST /api/support-chat/send: answers the thread with the new message. */
export function sendSupportMessage(message: string): Promise<TSupportThread> {
  return apiRequest('/api/support-chat/send', { json: { message }, schema: ZSupportThread });
}

/** Support's side (the platform's support only, core canAnswerSupport). */
export const SUPPORT_THREADS_QUERY_KEY = ['support-chat', 'threads'] as const;
export const supportThreadQueryKey = (userId: number) => ['support-chat', 'threads', userId] as const;

/** GET /api/support-chat/threads: every thread, the unanswered first. */
export function fetchSupportThreads(signal?: AbortSignal): Promise<TSupportThreadSummary[]> {
  return apiRequest('/api/support-chat/threads', { signal, schema: ZSupportThreadList });
}

/** GET /api/support-chat/threads/{userId}: one user's thread. */
export function fetchUserThread(userId: number, signal?: AbortSignal): Promise<TSupportThread> {
  return apiRequest(`/api/support-chat/threads/${userId}`, { signal, schema: ZSupportThread });
}

/** POST /api/support-chat/threads/{userId}/send: support's answer; answers the thread. */
export function answerUserThread({ userId, message }: { userId: number; message: string }) {
  return apiRequest(`/api/support-chat/threads/${userId}/send`, {
    json: { message },
    schema: ZSupportThread,
  });
}
