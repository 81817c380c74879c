import { z } from 'zod';
import { type TRole, hasRole } from '../identity/roles.js';
import { ZChatText } from './chat.js';

/**
 * The support chat (issue 29 §6; spec-core §2 Shell "support chat … when enableSupportChatBot is
 * on"): each user's own thread with the platform's support, kept by our server. A third-party
 * widget cannot be reached from a clinic's closed network, so the conversation is ours. The texts
 * are ours (the spec names only the switch).
 */
export const SUPPORT_CHAT_TEXTS = {
  open: 'Support chat',
  title: 'Chat with support',
  empty: 'Ask us anything: a member of the support team answers here.',
  placeholder: 'Type your question',
  send: 'Send',
  fromSupport: 'Support',
  you: 'You',
} as const;

/** Support's screen (issue 29 §6; ours). */
export const SUPPORT_INBOX_TEXTS = {
  title: 'Support inbox',
  threads: 'Conversations',
  awaiting: 'Waiting for an answer',
  answered: 'Answered',
  none: 'Nobody has written to support yet.',
  choose: 'Choose a conversation to read and answer it.',
  reply: 'Your answer',
  send: 'Send answer',
} as const;

/**
 * Who answers: a group admin (ROLE_GROUP or ROLE_ADMIN) of the platform's operator group (the group
 * that runs the platform, platform-billing DECISIONS.md). Another group's admins answer nobody.
 */
export function canAnswerSupport(roles: readonly TRole[], isOperatorGroup: boolean): boolean {
  return isOperatorGroup && hasRole(roles, 'ROLE_GROUP', 'ROLE_ADMIN');
}

/** Whether the support chat is offered: the group switch, for anyone signed in (not a viewer link). */
export function offersSupportChat(roles: readonly TRole[], enableSupportChatBot: boolean): boolean {
  return enableSupportChatBot && !hasRole(roles, 'ROLE_VIEWER');
}

export const ZSupportSendRequest = z.object({ message: ZChatText });
export type TSupportSendRequest = z.infer<typeof ZSupportSendRequest>;

export const ZSupportMessage = z
  .object({
    id: z.number().int(),
    /** True for support's answers, false for the user's own messages. */
    fromSupport: z.boolean(),
    senderEmail: z.string(),
    message: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'SupportMessage' });
export type TSupportMessage = z.infer<typeof ZSupportMessage>;

export const ZSupportThread = z.object({ messages: z.array(ZSupportMessage) }).meta({ id: 'SupportThread' });
export type TSupportThread = z.infer<typeof ZSupportThread>;

/** One user's thread as support's list shows it: who, which group, the latest message. */
export const ZSupportThreadSummary = z
  .object({
    userId: z.number().int(),
    email: z.string(),
    groupName: z.string(),
    lastMessage: z.string(),
    lastAt: z.string(),
    /** The last message is the user's: support has not answered it yet. */
    isAwaitingSupport: z.boolean(),
  })
  .meta({ id: 'SupportThreadSummary' });
export type TSupportThreadSummary = z.infer<typeof ZSupportThreadSummary>;
export const ZSupportThreadList = z.array(ZSupportThreadSummary);

export const ZSupportThreadParams = z.object({ userId: z.coerce.number().int().positive() });
