import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, canChat, seesOnlineStatuses } from '@radflow/core';
import { authOf } from '../../plugins/auth.js';
import { scopeOfAuth } from '../studies/study-access.js';
import { SIGNED_IN, errorResponses } from '../http.js';
import {
  DEFAULT_FEED_OPTIONS,
  LiveFeed,
  type TChatMessagesById,
  type TLiveFeedOptions,
} from './live-feed.js';
import { DEFAULT_STREAM_OPTIONS, LiveStream, type TLiveStreamOptions } from './live-stream.js';

export interface TLiveOptions
  extends TLiveStreamOptions, Omit<TLiveFeedOptions, 'onError' | 'chatMessagesById'> {
  /** Open streams per user in one server process; past it, 429. */
  maxStreamsPerUser: number;
}

export const DEFAULT_LIVE_OPTIONS: TLiveOptions = {
  ...DEFAULT_STREAM_OPTIONS,
  ...DEFAULT_FEED_OPTIONS,
  maxStreamsPerUser: 10,
};

export const MESSAGE_TOO_MANY_STREAMS = (max: number) =>
  `Too many open live connections (at most ${max} per user): close a tab and reload.`;
export const MESSAGE_BAD_LAST_EVENT_ID = 'lastEventId must be a whole number';

const ZLastEventId = z.string().regex(/^\d{1,15}$/, MESSAGE_BAD_LAST_EVENT_ID);

/**
 * `GET /api/live`: the tab's one Server-Sent Events stream of study events (issue 23 §4; README).
 * Thin: the feed (one per process) decides who sees what, the stream writes it.
 */
export const liveRoutes: FastifyPluginAsyncZod<{
  live?: Partial<TLiveOptions>;
  /** The chat's reader of messages (given by the app: the chat module already imports live). */
  chatMessagesById?: TChatMessagesById;
}> = async (app, pluginOpts) => {
  const opts: TLiveOptions = { ...DEFAULT_LIVE_OPTIONS, ...pluginOpts.live };
  const feed = new LiveFeed(app.ctx.db, {
    ...opts,
    ...(pluginOpts.chatMessagesById ? { chatMessagesById: pluginOpts.chatMessagesById } : {}),
    onError: (error) => app.log.warn({ err: error }, 'live feed'),
  });
  const streams = new Set<LiveStream>();
  // Before the server waits for its connections: an open stream would hold the close for ever.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
    await feed.stop();
  });

  app.get(
    '/live',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['live'],
        security: SIGNED_IN,
        summary:
          'Server-Sent Events: `study` events `{ id, reportStatusId, type }` of the rows the caller may see; resumes from Last-Event-ID (or ?lastEventId); `reset` means refetch everything; for doctors and centers, `presence` events `{ email, status, updatedAt }` when a doctor of the group goes online or offline',
        querystring: z.object({ lastEventId: ZLastEventId.optional() }),
        headers: z.object({ 'last-event-id': ZLastEventId.optional() }).loose(),
        response: { 200: z.unknown(), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await feed.start();
      if (feed.streamsOf(auth.user.id) >= opts.maxStreamsPerUser) {
        throw new AppError('TOO_MANY_REQUESTS', MESSAGE_TOO_MANY_STREAMS(opts.maxStreamsPerUser));
      }
      // EventSource sends the header on its own reconnects; a page starting a new one sends the query.
      const given = request.headers['last-event-id'] ?? request.query.lastEventId;
      const lastEventId = typeof given === 'string' ? Number(given) : null;
      const stream = new LiveStream(
        auth.user.id,
        scopeOfAuth(auth),
        canChat(auth.roles),
        seesOnlineStatuses(auth.roles),
        opts,
        () => {
          unsubscribe();
          streams.delete(stream);
        },
      );
      const unsubscribe = feed.subscribe(stream);
      streams.add(stream);
      // The response's close: the tab went away (or the socket dropped).
      reply.raw.once('close', () => stream.close());
      void stream.start(app.ctx.db, feed, lastEventId).catch((error: unknown) => {
        app.log.warn({ err: error }, 'live replay');
        stream.close();
      });
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream.body);
    },
  );
};
