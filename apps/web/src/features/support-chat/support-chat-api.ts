import { type TSupportThread, ZSupportThread } from '@radflow/core';
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
