import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError, ROUTER_PATHS } from '@radflow/core';
import { registerOfflineDicomweb, viewerCookieOf } from './dicomweb-routes.js';
import { registerEvents } from './events.js';
import { registerHybridRoutes } from './hybrid-routes.js';
import { MESSAGE_SIGN_IN, toErrorBody, type LocalApiOptions } from './http.js';
import type { VerifiedUser } from './ports.js';
import { registerRequestGuard } from './request-guard.js';
import { registerRoutes } from './routes.js';
import { RouterSessions } from './sessions.js';
import { registerWebApp } from './web-app.js';

export { MESSAGE_SIGN_IN, parseInput, toErrorBody, type LocalApiOptions } from './http.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without a router session (sign-in and the router's own info). */
    isPublic?: boolean;
  }
  interface FastifyRequest {
    routerUser: VerifiedUser | null;
    routerToken: string | undefined;
  }
}

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
};

/**
 * The router's local API on Fastify (API.md): the spec's 14 calls and /events behind one front door
 * (request-guard.ts) and one session check. Built here, listened on by startLocalApi.
 */
export async function buildLocalApi(options: LocalApiOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // JSON bodies here are small requests; files come as multipart, limited apart.
    bodyLimit: 1024 * 1024,
  });
  const sessions = new RouterSessions(options.now);

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toErrorBody(error, request.id);
    if (status >= 500) request.log.error({ err: error }, 'local API failure');
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(toErrorBody(new AppError('NOT_FOUND', 'Not found'), request.id).body),
  );

  registerRequestGuard(app, [options.serverUrl, ...(options.extraOrigins ?? [])], {
    allowOwnOrigin: options.webDir !== undefined,
  });

  app.decorateRequest('routerUser', null);
  app.decorateRequest('routerToken', undefined);
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.url) return; // unknown paths keep their 404
    // EventSource cannot send headers, so /events carries the session in its query (API.md).
    const fromQuery =
      request.routeOptions.url === ROUTER_PATHS.events
        ? (request.query as Record<string, string | undefined>).session
        : undefined;
    request.routerToken = bearerOf(request) ?? fromQuery ?? viewerCookieOf(request);
    request.routerUser = sessions.find(request.routerToken);
    if (!request.routerUser && request.routeOptions.config.isPublic !== true) {
      throw new AppError('UNAUTHORIZED', MESSAGE_SIGN_IN);
    }
  });

  await app.register(multipart, {
    limits: {
      fileSize: options.maxUploadBytes ?? 4 * 1024 ** 3,
      fieldSize: 1024 * 1024,
      fields: 20,
      // Film prints carry at most the 50 images a film list shows (spec-core §9).
      files: 50,
    },
  });

  registerRoutes(app, options, sessions);
  registerEvents(app, options);
  if (options.hybrid) registerHybridRoutes(app, options.hybrid, options.hybridTemplates);
  if (options.offlineImages) registerOfflineDicomweb(app, options.offlineImages);
  if (options.webDir) registerWebApp(app, options.webDir);
  return app;
}

/** Builds the API and listens on 127.0.0.1 only: the API is for the browser on this machine. */
export async function startLocalApi(
  options: LocalApiOptions & { port: number },
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildLocalApi(options);
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { app, url: `http://127.0.0.1:${port}` };
}
