import { and, arrayContains, asc, desc, eq, gt, isNull, ne, or } from 'drizzle-orm';
import {
  type TChatMessage,
  type TOnlineStatus,
  type TPresenceStatus,
  appearsInOnlineList,
  canChat,
  isPresenceChange,
  seesOnlineStatuses,
  shownStatus,
  sortOnlineFirst,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { chatMessages, chatThreads, reportStatuses, userPresence, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { publishPresenceChange } from '../live/presence-channel.js';
import { mentionNames } from './chat-members.js';
import { seenBy, toChatMessage, unseenByCaller } from './study-chat.js';

/** The most messages one beat brings; the panel reads a thread's whole history itself. */
const BEAT_MESSAGES_MAX = 50;

/**
 * POST /chat-thread/beat (spec-core §7, §9; issue 23 §3): notes the caller's status at the server's
 * clock, then answers the chat messages for them since `fetchFrom` (others' messages, not yet seen,
 * on studies they may see; for those who take part in the chat) and the online dots they see (the
 * group's doctors, for the doctor and the center: core `seesOnlineStatuses`, `shownStatus`). A
 * doctor's beat that changes their dot (core `isPresenceChange`) is published with it, so the open
 * lists show it at once (live README "Presence").
 */
export async function beat(
  ctx: AppContext,
  auth: TAuth,
  input: { status: TPresenceStatus; fetchFrom?: Date | undefined },
): Promise<{ notificationMessages: TChatMessage[]; onlineStatuses: TOnlineStatus[] }> {
  const now = ctx.now();
  const groupId = auth.user.groupId;
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: userPresence.status, updatedAt: userPresence.updatedAt })
      .from(userPresence)
      .where(eq(userPresence.userId, auth.user.id))
      .for('update');
    await tx
      .insert(userPresence)
      .values({ userId: auth.user.id, status: input.status, updatedAt: now })
      .onConflictDoUpdate({ target: userPresence.userId, set: { status: input.status, updatedAt: now } });
    if (groupId !== null && appearsInOnlineList(auth.roles) && isPresenceChange(before, input.status, now)) {
      await publishPresenceChange(tx, {
        groupId,
        userId: auth.user.id,
        email: auth.user.email,
        status: input.status,
        updatedAt: now.toISOString(),
      });
    }
  });
  return {
    notificationMessages: canChat(auth.roles) ? await newMessages(ctx, auth, input.fetchFrom) : [],
    onlineStatuses: seesOnlineStatuses(auth.roles) ? await doctorsOnline(ctx, auth, now) : [],
  };
}

async function newMessages(ctx: AppContext, auth: TAuth, since: Date | undefined): Promise<TChatMessage[]> {
  const rows = await unseenByCaller(
    ctx.db
      .select({
        message: chatMessages,
        threadType: chatThreads.threadType,
        reportStatusId: reportStatuses.id,
        studyId: reportStatuses.studyId,
      })
      .from(chatMessages)
      .$dynamic(),
    auth,
    and(
      or(isNull(chatMessages.senderUserId), ne(chatMessages.senderUserId, auth.user.id)),
      since ? gt(chatMessages.createdAt, since) : undefined,
    ),
  )
    .orderBy(desc(chatMessages.id))
    .limit(BEAT_MESSAGES_MAX);
  rows.reverse();
  const seen = await seenBy(
    ctx.db,
    rows.map((r) => r.message.id),
  );
  const names = await mentionNames(
    ctx.db,
    rows.flatMap((r) => r.message.mentions),
  );
  return rows.map((r) =>
    toChatMessage(
      { ...r.message, threadType: r.threadType, reportStatusId: r.reportStatusId, studyId: r.studyId },
      seen,
      auth.user.id,
      names,
    ),
  );
}

async function doctorsOnline(ctx: AppContext, auth: TAuth, now: Date): Promise<TOnlineStatus[]> {
  if (auth.user.groupId === null) return [];
  const rows = await ctx.db
    .select({ email: users.email, status: userPresence.status, updatedAt: userPresence.updatedAt })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.userId, users.id))
    .where(
      and(
        eq(users.groupId, auth.user.groupId),
        eq(users.active, true),
        arrayContains(users.roles, ['ROLE_DOCTOR']),
        ne(users.id, auth.user.id),
      ),
    )
    .orderBy(asc(users.email));
  return sortOnlineFirst(
    rows.map((r) => ({
      email: r.email,
      // A doctor whose tab has never beaten is in the list, OFFLINE.
      status:
        r.status && r.updatedAt ? shownStatus({ status: r.status, updatedAt: r.updatedAt }, now) : 'OFFLINE',
      updatedAt: r.updatedAt?.toISOString() ?? null,
    })),
  );
}
