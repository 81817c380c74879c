import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZSupportSendRequest, ZSupportThread, ZSupportThreadList, ZSupportThreadParams } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  answerSupportThread,
  listSupportThreads,
  loadOwnThread,
  loadSupportThread,
  sendToSupport,
} from './support-chat.js';

/**
 * The support chat (issue 29 §6; spec-core §2 Shell, enableSupportChatBot): a user's own thread with
 * the platform's support, and support's side of it. Decisions in README.md beside this.
 */
export const supportChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['chat'];
  const signedIn = { onRequest: app.requireUser };

  app.get(
    '/support-chat',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "The caller's thread with support (403 while the group's enableSupportChatBot is off)",
        response: { 200: ZSupportThread, ...errorResponses(401, 403) },
      },
    },
    (request) => loadOwnThread(app.ctx, authOf(request)),
  );

  app.post(
    '/support-chat/send',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'Send a message to support; answers the thread',
        body: ZSupportSendRequest,
        response: { 200: ZSupportThread, ...errorResponses(400, 401, 403, 429) },
      },
    },
    (request) => sendToSupport(app.ctx, authOf(request), request.body.message),
  );

  app.get(
    '/support-chat/threads',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Support's list of threads, latest first (the operator group's admins only)",
        response: { 200: ZSupportThreadList, ...errorResponses(401, 403) },
      },
    },
    (request) => listSupportThreads(app.ctx, authOf(request)),
  );

  app.get(
    '/support-chat/threads/:userId',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "One user's thread (support only)",
        params: ZSupportThreadParams,
        response: { 200: ZSupportThread, ...errorResponses(401, 403, 404) },
      },
    },
    (request) => loadSupportThread(app.ctx, authOf(request), request.params.userId),
  );

  app.post(
    '/support-chat/threads/:userId/send',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: "Answer a user's thread (support only)",
        params: ZSupportThreadParams,
        body: ZSupportSendRequest,
        response: { 200: ZSupportThread, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    (request) => answerSupportThread(app.ctx, authOf(request), request.params.userId, request.body.message),
  );
};
