import { type SQL, and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import {
  AppError,
  CHAT_MESSAGES,
  CHAT_SEND_LIMIT,
  CHAT_SEND_WINDOW_SECONDS,
  type TChatMessage,
  type TChatThreadType,
  type TSendChatMessageRequest,
  chatMemberTypeOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { chatMessageSeen, chatMessages, chatThreads, reportStatuses, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { visibleReportRows, scopeOfAuth } from '../studies/study-access.js';
import { loadVisibleReport } from '../studies/visible-row.js';
import { chatMembersOf, checkMentions, mentionNames, resolveReference } from './chat-members.js';

async function findThread(db: DbOrTx, threadType: TChatThreadType, reportStatusId: number) {
  const [thread] = await db
    .select({ id: chatThreads.id })
    .from(chatThreads)
    .where(and(eq(chatThreads.reportStatusId, reportStatusId), eq(chatThreads.threadType, threadType)));
  return thread ?? null;
}

/** POST /chat-thread/send-message: the row must be visible (404), the sender within the rate (429). */
export async function sendChatMessage(
  ctx: AppContext,
  auth: TAuth,
  request: TSendChatMessageRequest,
): Promise<TChatMessage> {
  const { entityId, message, assignedTo, mentions } = request.messageData;
  const row = await loadVisibleReport(ctx.db, auth, entityId);
  await checkMentions(ctx.db, row, auth.user.id, mentions);
  const reference = request.messageData.reference
    ? await resolveReference(ctx.db, row, request.messageData.reference)
    : null;
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const since = new Date(now.getTime() - CHAT_SEND_WINDOW_SECONDS * 1000);
    const [recent] = await tx
      .select({ n: count() })
      .from(chatMessages)
      .where(and(eq(chatMessages.senderUserId, auth.user.id), gt(chatMessages.createdAt, since)));
    if ((recent?.n ?? 0) >= CHAT_SEND_LIMIT) {
      throw new AppError('TOO_MANY_REQUESTS', CHAT_MESSAGES.tooMany, 'message');
    }
    // One thread per row and type: made by its first message (two first messages at once meet
    // here). Looked for first: on one engine taking one statement at a time (PGlite) every
    // statement of a send is delivery time, and only the first message needs the insert.
    let thread = await findThread(tx, 'REPORT_CHAT', row.id);
    if (!thread) {
      await tx
        .insert(chatThreads)
        .values({ threadType: 'REPORT_CHAT', reportStatusId: row.id, createdAt: now })
        .onConflictDoNothing();
      thread = await findThread(tx, 'REPORT_CHAT', row.id);
    }
    if (!thread) throw new Error('chat thread missing after insert');
    const [inserted] = await tx
      .insert(chatMessages)
      .values({
        threadId: thread.id,
        senderUserId: auth.user.id,
        senderEmail: auth.user.email,
        memberType: chatMemberTypeOf(auth.roles),
        assignedTo,
        body: message,
        mentions,
        reference,
        createdAt: now,
      })
      .returning();
    if (!inserted) throw new Error('chat message not inserted');
    await tx.insert(chatMessageSeen).values({ messageId: inserted.id, userId: auth.user.id, seenAt: now });
    await recordStudyEvent(tx, {
      type: 'CHAT_MESSAGE_SENT',
      reportStatusId: row.id,
      actor: { userId: auth.user.id },
      fromStatus: row.status,
      toStatus: row.status,
      payload: { messageId: inserted.id, assignedTo, mentions },
      at: now,
    });
    return toChatMessage(
      { ...inserted, threadType: 'REPORT_CHAT', reportStatusId: row.id, studyId: row.studyId },
      new Map([[inserted.id, [{ email: auth.user.email, userId: auth.user.id }]]]),
      auth.user.id,
      await mentionNames(tx, mentions),
    );
  });
}

/** GET /chat-thread/get-messages: the row's thread of that type, oldest first, with who saw what. */
export async function getChatMessages(
  ctx: AppContext,
  auth: TAuth,
  threadType: TChatThreadType,
  entityId: number,
): Promise<{ messages: TChatMessage[]; unseen: number }> {
  const row = await loadVisibleReport(ctx.db, auth, entityId);
  // The thread found by its messages in one statement, then who saw them and who they name at
  // once: an open panel refetches on every message, so its round trips are its delivery time.
  const rows = await ctx.db
    .select({ message: chatMessages })
    .from(chatMessages)
    .innerJoin(chatThreads, eq(chatThreads.id, chatMessages.threadId))
    .where(and(eq(chatThreads.reportStatusId, row.id), eq(chatThreads.threadType, threadType)))
    .orderBy(asc(chatMessages.id))
    .then((found) => found.map((r) => r.message));
  if (rows.length === 0) return { messages: [], unseen: 0 };
  const [seen, names] = await Promise.all([
    seenBy(
      ctx.db,
      rows.map((r) => r.id),
    ),
    mentionNames(
      ctx.db,
      rows.flatMap((r) => r.mentions),
    ),
  ]);
  const messages = rows.map((r) =>
    toChatMessage(
      { ...r, threadType, reportStatusId: row.id, studyId: row.studyId },
      seen,
      auth.user.id,
      names,
    ),
  );
  return { messages, unseen: messages.filter((m) => !m.seen).length };
}

/**
 * The messages `ids` as the thread's GET answers them to one who has not seen them yet (`seen`
 * false: the live stream sets it per reader), for the live stream to carry in their
 * CHAT_MESSAGE_SENT events (live README). Who may receive them is the stream's question (the row's
 * access rule and core canChat, as the GET's); this only reads, in three statements for a batch.
 */
export async function chatMessagesById(
  db: DbOrTx,
  ids: readonly number[],
): Promise<Map<number, TChatMessage>> {
  const answer = new Map<number, TChatMessage>();
  if (ids.length === 0) return answer;
  const rows = await db
    .select({
      message: chatMessages,
      threadType: chatThreads.threadType,
      reportStatusId: reportStatuses.id,
      studyId: reportStatuses.studyId,
    })
    .from(chatMessages)
    .innerJoin(chatThreads, eq(chatThreads.id, chatMessages.threadId))
    .innerJoin(reportStatuses, eq(reportStatuses.id, chatThreads.reportStatusId))
    .where(inArray(chatMessages.id, [...ids]));
  if (rows.length === 0) return answer;
  const [seen, names] = await Promise.all([
    seenBy(
      db,
      rows.map((r) => r.message.id),
    ),
    mentionNames(
      db,
      rows.flatMap((r) => r.message.mentions),
    ),
  ]);
  for (const { message, ...where } of rows) {
    answer.set(message.id, toChatMessage({ ...message, ...where }, seen, 0, names));
  }
  return answer;
}

/**
 * POST /chat-thread/unseen-counts: the caller's unseen REPORT_CHAT messages per row of `ids` (a list
 * page), one query with the access rule in its WHERE, so a row the caller may not see never appears.
 */
export async function unseenCounts(
  ctx: AppContext,
  auth: TAuth,
  ids: readonly number[],
): Promise<{ unseen: Record<string, number> }> {
  if (ids.length === 0) return { unseen: {} };
  const rows = await unseenByCaller(
    ctx.db.select({ id: reportStatuses.id, n: count() }).from(chatMessages).$dynamic(),
    auth,
    and(inArray(reportStatuses.id, [...ids]), eq(chatThreads.threadType, 'REPORT_CHAT')),
  ).groupBy(reportStatuses.id);
  return { unseen: Object.fromEntries(rows.map((r) => [String(r.id), r.n])) };
}

/** GET /chat-thread/members: whom a message on the row may mention (404 for a row not visible). */
export async function listChatMembers(ctx: AppContext, auth: TAuth, entityId: number) {
  const row = await loadVisibleReport(ctx.db, auth, entityId);
  return { members: await chatMembersOf(ctx.db, row, auth.user.id) };
}

/** POST /chat-thread/seen: every message of the row's thread is seen by the caller; answers how many became so. */
export async function markChatSeen(
  ctx: AppContext,
  auth: TAuth,
  threadType: TChatThreadType,
  entityId: number,
): Promise<{ seen: number }> {
  const row = await loadVisibleReport(ctx.db, auth, entityId);
  const thread = await findThread(ctx.db, threadType, row.id);
  if (!thread) return { seen: 0 };
  return markSeen(ctx, auth, sql`${chatMessages.threadId} = ${thread.id}`);
}

/** POST /chat-thread/all-seen: every message of that type the caller may see becomes seen by them. */
export async function markAllChatSeen(
  ctx: AppContext,
  auth: TAuth,
  threadType: TChatThreadType,
): Promise<{ seen: number }> {
  // The threads of rows the caller may see (the access rule in the query, as every list has it).
  const visibleThreads = ctx.db
    .select({ id: chatThreads.id })
    .from(chatThreads)
    .innerJoin(reportStatuses, eq(reportStatuses.id, chatThreads.reportStatusId))
    .where(and(eq(chatThreads.threadType, threadType), visibleReportRows(scopeOfAuth(auth))));
  return markSeen(ctx, auth, inArray(chatMessages.threadId, visibleThreads));
}

async function markSeen(ctx: AppContext, auth: TAuth, which: ReturnType<typeof sql>) {
  const unseen = ctx.db
    .select({
      messageId: chatMessages.id,
      userId: sql<number>`${auth.user.id}::int`.as('user_id'),
      seenAt: sql<Date>`${ctx.now().toISOString()}::timestamptz`.as('created_at'),
    })
    .from(chatMessages)
    .leftJoin(
      chatMessageSeen,
      and(eq(chatMessageSeen.messageId, chatMessages.id), eq(chatMessageSeen.userId, auth.user.id)),
    )
    .where(and(which, isNull(chatMessageSeen.messageId)));
  const inserted = await ctx.db
    .insert(chatMessageSeen)
    .select(unseen)
    .onConflictDoNothing()
    .returning({ messageId: chatMessageSeen.messageId });
  return { seen: inserted.length };
}

/**
 * A select from `chat_messages` narrowed to the messages the caller has not seen on rows they may
 * see (the access rule in the WHERE), and `where`: the beat's new messages and the list's unseen
 * counts. The select's fields may read the thread and the row (both joined here).
 */
export function unseenByCaller<T extends PgSelect>(query: T, auth: TAuth, where: SQL | undefined): T {
  return query
    .innerJoin(chatThreads, eq(chatThreads.id, chatMessages.threadId))
    .innerJoin(reportStatuses, eq(reportStatuses.id, chatThreads.reportStatusId))
    .leftJoin(
      chatMessageSeen,
      and(eq(chatMessageSeen.messageId, chatMessages.id), eq(chatMessageSeen.userId, auth.user.id)),
    )
    .where(
      and(visibleReportRows(scopeOfAuth(auth)), isNull(chatMessageSeen.messageId), where),
    ) as unknown as T;
}

type TSeenBy = Map<number, Array<{ email: string; userId: number }>>;

export async function seenBy(db: DbOrTx, messageIds: number[]): Promise<TSeenBy> {
  const byMessage: TSeenBy = new Map();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({ messageId: chatMessageSeen.messageId, userId: chatMessageSeen.userId, email: users.email })
    .from(chatMessageSeen)
    .innerJoin(users, eq(users.id, chatMessageSeen.userId))
    .where(inArray(chatMessageSeen.messageId, messageIds))
    .orderBy(asc(chatMessageSeen.seenAt));
  for (const r of rows) {
    const list = byMessage.get(r.messageId) ?? [];
    list.push({ email: r.email, userId: r.userId });
    byMessage.set(r.messageId, list);
  }
  return byMessage;
}

export function toChatMessage(
  row: typeof chatMessages.$inferSelect & {
    threadType: TChatThreadType;
    reportStatusId: number;
    studyId: number;
  },
  seen: TSeenBy,
  callerId: number,
  names: ReadonlyMap<number, string>,
): TChatMessage {
  const seenList = seen.get(row.id) ?? [];
  return {
    messageId: row.id,
    chatThreadId: row.threadId,
    threadType: row.threadType,
    entityId: row.reportStatusId,
    memberType: row.memberType,
    createdBy: row.senderEmail,
    seen: seenList.some((s) => s.userId === callerId),
    messageUpdatedAt: row.createdAt.toISOString(),
    message: {
      type: 'COMMENT',
      message: row.body,
      assignedTo: row.assignedTo,
      entityId: row.reportStatusId,
      studyId: row.studyId,
      mentions: row.mentions.map((userId) => ({ userId, name: names.get(userId) ?? '' })),
      reference: row.reference ?? null,
    },
    oldMessage: null,
    seenByList: seenList.map((s) => ({ email: s.email, seen: true })),
  };
}
