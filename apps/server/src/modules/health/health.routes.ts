import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealth } from '@radflow/core';
import { errorResponses } from '../http.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness with a database round-trip',
        response: { 200: ZHealth, ...errorResponses(500) },
      },
    },
    async () => {
      await app.ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
};
