import { and, count, desc, eq, gt } from 'drizzle-orm';
import {
  AppError,
  CHAT_MESSAGES,
  CHAT_SEND_LIMIT,
  CHAT_SEND_WINDOW_SECONDS,
  MESSAGES,
  type TSupportMessage,
  type TSupportThread,
  type TSupportThreadSummary,
  canAnswerSupport,
  groupFlags,
  offersSupportChat,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, supportMessages, users } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';

/** At most this many messages of a thread are answered (the newest). */
const THREAD_LIMIT = 200;

type TRow = typeof supportMessages.$inferSelect;
const messageOf = (row: TRow): TSupportMessage => ({
  id: row.id,
  fromSupport: row.fromSupport,
  senderEmail: row.senderEmail,
  message: row.body,
  createdAt: row.createdAt.toISOString(),
});

async function threadOf(db: DbOrTx, userId: number): Promise<TSupportThread> {
  const rows = await db
    .select()
    .from(supportMessages)
    .where(eq(supportMessages.userId, userId))
    .orderBy(desc(supportMessages.id))
    .limit(THREAD_LIMIT);
  return { messages: rows.reverse().map(messageOf) };
}

/** The caller's group has the switch on (403 otherwise: the chat is not offered to them). */
async function requireOffered(ctx: AppContext, auth: TAuth): Promise<void> {
  const flags = groupFlags(await loadGroupPreferences(ctx.db, auth.user.groupId));
  if (!offersSupportChat(auth.roles, flags.enableSupportChatBot)) {
    throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  }
}

/** Whether the caller is the platform's support (see core canAnswerSupport). */
export async function isSupportAgent(ctx: AppContext, auth: TAuth): Promise<boolean> {
  const [group] = await ctx.db
    .select({ operator: groups.platformOperator })
    .from(groups)
    .where(eq(groups.id, auth.user.groupId));
  return canAnswerSupport(auth.roles, group?.operator ?? false);
}

async function requireSupportAgent(ctx: AppContext, auth: TAuth): Promise<void> {
  if (!(await isSupportAgent(ctx, auth))) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
}

/** The same per-sender limit as the study chat (30 a minute), counted in this table. */
async function checkSendRate(ctx: AppContext, tx: DbOrTx, senderUserId: number): Promise<void> {
  const since = new Date(ctx.now().getTime() - CHAT_SEND_WINDOW_SECONDS * 1000);
  const [recent] = await tx
    .select({ n: count() })
    .from(supportMessages)
    .where(and(eq(supportMessages.senderUserId, senderUserId), gt(supportMessages.createdAt, since)));
  if ((recent?.n ?? 0) >= CHAT_SEND_LIMIT)
    throw new AppError('TOO_MANY_REQUESTS', CHAT_MESSAGES.tooMany, 'message');
}

/** GET /support-chat: the caller's own thread. */
export async function loadOwnThread(ctx: AppContext, auth: TAuth): Promise<TSupportThread> {
  await requireOffered(ctx, auth);
  return threadOf(ctx.db, auth.user.id);
}

/** POST /support-chat/send: a message of the caller to support; answers the thread. */
export async function sendToSupport(ctx: AppContext, auth: TAuth, message: string): Promise<TSupportThread> {
  await requireOffered(ctx, auth);
  return ctx.db.transaction(async (tx) => {
    await checkSendRate(ctx, tx, auth.user.id);
    await tx.insert(supportMessages).values({
      userId: auth.user.id,
      groupId: auth.user.groupId,
      senderUserId: auth.user.id,
      senderEmail: auth.user.email,
      fromSupport: false,
      body: message,
      createdAt: ctx.now(),
    });
    return threadOf(tx, auth.user.id);
  });
}

/** GET /support-chat/threads (support): every thread, the unanswered first, then the latest first. */
export async function listSupportThreads(ctx: AppContext, auth: TAuth): Promise<TSupportThreadSummary[]> {
  await requireSupportAgent(ctx, auth);
  // The newest message of each thread (one per user), then the threads newest first.
  const rows = await ctx.db
    .selectDistinctOn([supportMessages.userId], {
      id: supportMessages.id,
      userId: supportMessages.userId,
      email: users.email,
      groupName: groups.name,
      body: supportMessages.body,
      createdAt: supportMessages.createdAt,
      fromSupport: supportMessages.fromSupport,
    })
    .from(supportMessages)
    .innerJoin(users, eq(users.id, supportMessages.userId))
    .innerJoin(groups, eq(groups.id, supportMessages.groupId))
    .orderBy(supportMessages.userId, desc(supportMessages.id));
  // Support's screen works down the list: the threads waiting for an answer first, newest first.
  rows.sort((x, y) => Number(x.fromSupport) - Number(y.fromSupport) || y.id - x.id);
  rows.length = Math.min(rows.length, THREAD_LIMIT);
  return rows.map((r) => ({
    userId: r.userId,
    email: r.email,
    groupName: r.groupName,
    lastMessage: r.body,
    lastAt: r.createdAt.toISOString(),
    isAwaitingSupport: !r.fromSupport,
  }));
}

async function requireThread(db: DbOrTx, userId: number): Promise<{ groupId: number }> {
  const [first] = await db
    .select({ groupId: supportMessages.groupId })
    .from(supportMessages)
    .where(eq(supportMessages.userId, userId))
    .limit(1);
  if (!first) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'userId');
  return first;
}

/** GET /support-chat/threads/{userId} (support): one user's thread. */
export async function loadSupportThread(
  ctx: AppContext,
  auth: TAuth,
  userId: number,
): Promise<TSupportThread> {
  await requireSupportAgent(ctx, auth);
  await requireThread(ctx.db, userId);
  return threadOf(ctx.db, userId);
}

/** POST /support-chat/threads/{userId}/send (support): an answer in a thread the user started. */
export async function answerSupportThread(
  ctx: AppContext,
  auth: TAuth,
  userId: number,
  message: string,
): Promise<TSupportThread> {
  await requireSupportAgent(ctx, auth);
  return ctx.db.transaction(async (tx) => {
    const thread = await requireThread(tx, userId);
    await checkSendRate(ctx, tx, auth.user.id);
    await tx.insert(supportMessages).values({
      userId,
      groupId: thread.groupId,
      senderUserId: auth.user.id,
      senderEmail: auth.user.email,
      fromSupport: true,
      body: message,
      createdAt: ctx.now(),
    });
    return threadOf(tx, userId);
  });
}
