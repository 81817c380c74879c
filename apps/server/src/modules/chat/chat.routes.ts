import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBeatRequest,
  ZBeatResponse,
  ZChatAllSeenRequest,
  ZChatMessage,
  ZChatMessages,
  ZChatMembers,
  ZChatMembersQuery,
  ZChatSeenRequest,
  ZChatUnseenCounts,
  ZChatUnseenCountsRequest,
  ZChatSeenResponse,
  ZGetChatMessagesQuery,
  ZSendChatMessageRequest,
  canChat,
} from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import { beat } from './beat.js';
import {
  getChatMessages,
  listChatMembers,
  markAllChatSeen,
  markChatSeen,
  sendChatMessage,
  unseenCounts,
} from './study-chat.js';

/**
 * The study chat (spec-core §7 'Chat and notifications'; issue 23 §1). Roles outside core `canChat`
 * get 403 before any row is read; a row the caller may not see answers 404 like a missing one, so
 * neither answer tells whether a thread exists.
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['chat'];
  const chatter = { onRequest: app.requirePermission(canChat) };

  app.post(
    '/chat-thread/send-message',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Post a message in a study's chat (plain text; 429 past the sender's rate)",
        body: ZSendChatMessageRequest,
        response: { 200: ZChatMessage, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    (request) => sendChatMessage(app.ctx, authOf(request), request.body),
  );

  app.get(
    '/chat-thread/get-messages',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "A study's thread, oldest first, with who has seen each message",
        querystring: ZGetChatMessagesQuery,
        response: { 200: ZChatMessages, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => getChatMessages(app.ctx, authOf(request), request.query.threadType, request.query.entityId),
  );

  app.post(
    '/chat-thread/seen',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Mark a study's thread seen by the caller; answers how many messages became seen",
        body: ZChatSeenRequest,
        response: { 200: ZChatSeenResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => markChatSeen(app.ctx, authOf(request), request.body.chatThreadType, request.body.entityId),
  );

  app.post(
    '/chat-thread/all-seen',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Mark every thread of a type the caller may see as seen by them',
        body: ZChatAllSeenRequest,
        response: { 200: ZChatSeenResponse, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => markAllChatSeen(app.ctx, authOf(request), request.body.chatThreadType),
  );

  app.post(
    '/chat-thread/unseen-counts',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The caller's unseen chat messages per study row of a list page (rows they may see only)",
        body: ZChatUnseenCountsRequest,
        response: { 200: ZChatUnseenCounts, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => unseenCounts(app.ctx, authOf(request), request.body.ids),
  );

  app.get(
    '/chat-thread/members',
    {
      ...chatter,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The people of a study's conversation, whom a message may mention",
        querystring: ZChatMembersQuery,
        response: { 200: ZChatMembers, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => listChatMembers(app.ctx, authOf(request), request.query.entityId),
  );

  // Every signed-in user beats (presence is everyone's); what it answers depends on the roles.
  app.post(
    '/chat-thread/beat',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: SIGNED_IN,
        summary:
          "Note the tab's status; answer new chat messages for the caller and the online dots they see",
        body: ZBeatRequest,
        response: { 200: ZBeatResponse, ...errorResponses(400, 401) },
      },
    },
    (request) => beat(app.ctx, authOf(request), request.body),
  );
};
