import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZApiVersion, ZHealth } from '@radflow/core';
import serverPackage from '../../../package.json' with { type: 'json' };
import { pingDatabase } from '../../db/client.js';
import { SIGNED_IN, errorResponses } from '../http.js';

/** A database round-trip younger than this answers the health check without a new one. */
const PROBE_FRESH_MS = 1_000;
/**
 * A successful round-trip younger than this answers at once while the next one is on its way: the
 * health check must answer in milliseconds whatever the load (security issue §4), and the probe
 * waits at least for the statement that runs. Older (or failed): the check waits for it. The probe
 * goes ahead of the calls waiting for the database (pingDatabase): behind them it would wait for the
 * whole line (200 list calls of ~100 ms on PGlite: ~20 s) and outlive this window.
 */
const PROBE_VALID_MS = 10_000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  let lastOkAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | null = null;
  // One round-trip at a time, however many checks arrive.
  const probe = () =>
    (pending ??= pingDatabase(app.ctx.db)
      .then(() => {
        lastOkAt = performance.now();
      })
      .finally(() => {
        pending = null;
      }));

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness with a database round-trip (one at a time; a recent one answers at once)',
        response: { 200: ZHealth, ...errorResponses(500) },
      },
    },
    async () => {
      const age = performance.now() - lastOkAt;
      if (age > PROBE_VALID_MS) await probe();
      else if (age > PROBE_FRESH_MS) void probe().catch(() => undefined);
      return { status: 'ok' as const };
    },
  );

  // The version is for the people using the product (the footer), not for a passer-by who would
  // match it against a list of known flaws: signed in only.
  app.get(
    '/settings/api-version',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['health'],
        security: SIGNED_IN,
        summary: "The running server's version",
        response: { 200: ZApiVersion, ...errorResponses(401) },
      },
    },
    () => ({ version: serverPackage.version }),
  );
};
