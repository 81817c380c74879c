import { z } from 'zod';
import { type TRole, hasRole } from '../identity/roles.js';
import { ZOnlineStatus } from '../presence/presence.js';
import { STUDY_ATTACHMENT_KINDS } from '../studies/study-files.js';

/**
 * The study chat (spec-core §1 Chat / notification message, §7 'Chat and notifications', §5 'Please
 * input a message'; issue 23 §1). A thread belongs to one study row (its report status id, the
 * spec's entityId) and one type: REPORT_CHAT is the conversation, REPORT_NOTIFICATION the study's
 * notification timeline.
 */
export const CHAT_THREAD_TYPES = ['REPORT_CHAT', 'REPORT_NOTIFICATION'] as const;
export type TChatThreadType = (typeof CHAT_THREAD_TYPES)[number];

/** Who a message is addressed to (spec-core §7 'Chat assignment options'). */
export const CHAT_ASSIGNMENTS = ['admin', 'center', 'radiologist', 'NONE'] as const;
export type TChatAssignment = (typeof CHAT_ASSIGNMENTS)[number];

/** A message's longest text, in characters (a chat line, not a report). */
export const CHAT_MESSAGE_MAX_LENGTH = 2000;
/** Messages one user may send in CHAT_SEND_WINDOW_SECONDS across all threads. */
export const CHAT_SEND_LIMIT = 30;
export const CHAT_SEND_WINDOW_SECONDS = 60;

export const CHAT_MESSAGES = {
  /** spec-core §5. */
  empty: 'Please input a message',
  tooLong: `A message can have at most ${CHAT_MESSAGE_MAX_LENGTH} characters`,
  tooMany: 'Too many messages. Please wait a minute and try again.',
  notMember: "A mentioned user is not in this study's conversation",
  notThisStudy: 'The referenced file or image is not part of this study',
} as const;

/** The most people one message may mention. */
export const CHAT_MENTIONS_MAX = 20;

/**
 * Who takes part in a study's chat: the people who work on the study (the centre's staff, the
 * radiologists and those who route, type, verify or audit their work, the group's admins). The
 * patient, a viewer account and the referring doctor read the study but are not in the staff's
 * conversation about it; lab front-desk, billing and sales roles do not work on the study.
 */
const CHAT_ROLES: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_GROUP',
  'ROLE_CENTER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_OFFLINE_HYBRID',
  'ROLE_DOCTOR',
  'ROLE_ASSIGNOR',
  'ROLE_TYPIST',
  'ROLE_VERIFIER',
  'ROLE_AUDITOR',
  'ROLE_TELE_RADIOLOGY',
];

export function canChat(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...CHAT_ROLES);
}

const ZEntityId = z.coerce.number().int().positive();

/** A message's text: trimmed, not empty, at most CHAT_MESSAGE_MAX_LENGTH; never HTML (shown as text). */
export const ZChatText = z
  .string()
  .transform((text) => text.trim())
  .pipe(z.string().min(1, CHAT_MESSAGES.empty).max(CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong));

/**
 * What a message may point at in its study: one of the row's attachments, or one image (a SOP
 * instance of the study and its frame, 1-based as the viewer counts them).
 */
export const ZChatReferenceInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('attachment'), attachmentId: ZEntityId }),
  z.object({
    kind: z.literal('image'),
    sopInstanceUid: z.string().min(1).max(128),
    frame: z.number().int().min(1).max(1_000_000).default(1),
  }),
]);
export type TChatReferenceInput = z.infer<typeof ZChatReferenceInput>;

/** A reference as answered: enough to draw its link without another call. */
export const ZChatReference = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('attachment'),
    attachmentId: z.number().int(),
    attachmentKind: z.enum(STUDY_ATTACHMENT_KINDS),
    path: z.string(),
    fileName: z.string(),
  }),
  z.object({
    kind: z.literal('image'),
    sopInstanceUid: z.string(),
    seriesInstanceUid: z.string(),
    studyInstanceUid: z.string(),
    frame: z.number().int(),
  }),
]);
export type TChatReference = z.infer<typeof ZChatReference>;

/** POST /chat-thread/send-message. */
export const ZSendChatMessageRequest = z
  .object({
    messageData: z.object({
      assignedTo: z.enum(CHAT_ASSIGNMENTS).default('NONE'),
      type: z.literal('COMMENT').default('COMMENT'),
      entityId: ZEntityId,
      message: ZChatText,
      /** The study's id; the thread is the entity's (the row), so this is informative only. */
      studyId: ZEntityId.optional(),
      /** User ids named with @: each must be in the study's conversation (`isChatMemberOf`). */
      mentions: z
        .array(ZEntityId)
        .max(CHAT_MENTIONS_MAX)
        .default([])
        .transform((ids) => [...new Set(ids)]),
      /** An attachment or an image of this study the message is about. */
      reference: ZChatReferenceInput.nullish(),
    }),
  })
  .meta({ id: 'SendChatMessageRequest' });
export type TSendChatMessageRequest = z.infer<typeof ZSendChatMessageRequest>;

/** GET /chat-thread/get-messages?threadType=&entityId=. */
export const ZGetChatMessagesQuery = z.object({
  threadType: z.enum(CHAT_THREAD_TYPES),
  entityId: ZEntityId,
});

/** POST /chat-thread/seen. */
export const ZChatSeenRequest = z.object({ chatThreadType: z.enum(CHAT_THREAD_TYPES), entityId: ZEntityId });
/** POST /chat-thread/all-seen. */
export const ZChatAllSeenRequest = z.object({ chatThreadType: z.enum(CHAT_THREAD_TYPES) });
export const ZChatSeenResponse = z.object({ seen: z.number().int().nonnegative() });

/** The spec's message (spec-core §1), its `message` JSON as an object. */
export const ZChatMessage = z
  .object({
    messageId: z.number().int(),
    chatThreadId: z.number().int(),
    threadType: z.enum(CHAT_THREAD_TYPES),
    entityId: z.number().int(),
    /** The sender's role in the conversation: center, radiologist or admin (who routes and oversees). */
    memberType: z.enum(['center', 'radiologist', 'admin']),
    /** The sender's e-mail. */
    createdBy: z.string(),
    /** Whether the caller has seen it (their own messages count as seen). */
    seen: z.boolean(),
    messageUpdatedAt: z.string(),
    message: z.object({
      type: z.literal('COMMENT'),
      message: z.string(),
      assignedTo: z.enum(CHAT_ASSIGNMENTS),
      entityId: z.number().int(),
      studyId: z.number().int(),
      /** The users it mentions, with the name the text shows after '@'. */
      mentions: z.array(z.object({ userId: z.number().int(), name: z.string() })),
      reference: ZChatReference.nullable(),
    }),
    oldMessage: z.string().nullable(),
    seenByList: z.array(z.object({ email: z.string(), seen: z.boolean() })),
  })
  .meta({ id: 'ChatMessage' });
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatMessages = z.object({
  messages: z.array(ZChatMessage),
  /** Messages of this thread the caller has not seen. */
  unseen: z.number().int().nonnegative(),
});

/** The sender's side of the conversation, from their roles: centre staff, radiologists, the rest admin. */
export function chatMemberTypeOf(roles: readonly TRole[]): TChatMessage['memberType'] {
  if (hasRole(roles, 'ROLE_CENTER', 'ROLE_CENTER_BACKUP', 'ROLE_CENTER_SHARE_ALL', 'ROLE_OFFLINE_HYBRID'))
    return 'center';
  if (hasRole(roles, 'ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER', 'ROLE_TELE_RADIOLOGY'))
    return 'radiologist';
  return 'admin';
}

/** POST /chat-thread/beat's answer: new messages for the caller, and the online dots they see. */
export const ZBeatResponse = z
  .object({
    notificationMessages: z.array(ZChatMessage),
    onlineStatuses: z.array(ZOnlineStatus),
  })
  .meta({ id: 'BeatResponse' });

/**
 * Who is in a study's conversation, beyond seeing the row (issue 23 §1 mentions; decision in
 * apps/server/src/modules/chat/README.md): the row's centre staff, the doctor it is assigned to, and
 * the group's routers and admins (assignor, admin, group). Typists, verifiers and auditors read and
 * write the thread when they see the row but are not offered to be @-mentioned: their work reaches
 * them through their doctor or their own lists.
 */
export function isChatMemberOf(
  user: { id: number; roles: readonly TRole[]; centerId: number | null },
  row: { centerId: number; assignedToUserId: number | null },
): boolean {
  if (!canChat(user.roles)) return false;
  if (hasRole(user.roles, 'ROLE_ASSIGNOR', 'ROLE_ADMIN', 'ROLE_GROUP')) return true;
  if (hasRole(user.roles, 'ROLE_DOCTOR') && row.assignedToUserId === user.id) return true;
  return chatMemberTypeOf(user.roles) === 'center' && user.centerId === row.centerId;
}

/** GET /chat-thread/members?entityId=: the people a message on that row may mention. */
export const ZChatMembersQuery = z.object({ entityId: ZEntityId });
export const ZChatMember = z.object({
  userId: z.number().int(),
  email: z.string(),
  /** The display name (current user `identifier`). */
  name: z.string(),
  memberType: z.enum(['center', 'radiologist', 'admin']),
});
export type TChatMember = z.infer<typeof ZChatMember>;
export const ZChatMembers = z.object({ members: z.array(ZChatMember) }).meta({ id: 'ChatMembers' });

/** POST /chat-thread/unseen-counts {ids}: the unseen REPORT_CHAT messages per row of a list page. */
export const ZChatUnseenCountsRequest = z.object({ ids: z.array(ZEntityId).max(500) });
export const ZChatUnseenCounts = z
  .object({
    /** By row id; rows the caller may not see, and rows with nothing unseen, are absent. */
    unseen: z.record(z.string(), z.number().int().positive()),
  })
  .meta({ id: 'ChatUnseenCounts' });
export type TChatUnseenCounts = z.infer<typeof ZChatUnseenCounts>;

/**
 * The pieces of a message's text for display: plain text and @mentions (of names in `names`), in
 * order. Text only: the web draws each piece as text, never as HTML.
 */
export function chatTextParts(
  text: string,
  names: readonly string[],
): Array<{ kind: 'text' | 'mention'; text: string }> {
  const sorted = [...new Set(names.filter((n) => n.length > 0))].sort((a, b) => b.length - a.length);
  const parts: Array<{ kind: 'text' | 'mention'; text: string }> = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '@') {
      const name = sorted.find((n) => text.startsWith(n, i + 1));
      if (name !== undefined) {
        if (plain) parts.push({ kind: 'text', text: plain });
        plain = '';
        parts.push({ kind: 'mention', text: `@${name}` });
        i += name.length + 1;
        continue;
      }
    }
    plain += text[i];
    i += 1;
  }
  if (plain) parts.push({ kind: 'text', text: plain });
  return parts;
}
export type TBeatResponse = z.infer<typeof ZBeatResponse>;

export type TChatThread = z.infer<typeof ZChatMessages>;

/**
 * `thread` with `message` in it, in id order, once (by `messageId`: the sender's own answer and
 * the live event of the same message meet here, and a resumed stream may bring it again; the
 * copy already held wins), the unseen count following. The live stream's message and the sent
 * message's answer go into the tab's thread this way; the next refetch reconciles.
 */
export function withChatMessage(thread: TChatThread, message: TChatMessage): TChatThread {
  if (thread.messages.some((m) => m.messageId === message.messageId)) return thread;
  const messages = [...thread.messages, message].sort((a, b) => a.messageId - b.messageId);
  return { messages, unseen: thread.unseen + (message.seen ? 0 : 1) };
}
