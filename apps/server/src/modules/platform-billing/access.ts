import { eq } from 'drizzle-orm';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { AppError, type TRole, canUsePlatformBilling, hasRole } from '@radflow/core';
import { groups } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, authOf } from '../../plugins/auth.js';

/**
 * The guard of every platform billing call: a platform billing role (or the one `roles` given) AND a
 * user of the platform's operator group (DECISIONS.md "Who sees what"). Anyone else: 403, before any
 * group's row is read.
 */
export function requirePlatformBilling(
  app: FastifyInstance,
  roles?: readonly TRole[],
): onRequestAsyncHookHandler {
  const byRole = app.requirePermission((have) =>
    roles ? hasRole(have, ...roles) : canUsePlatformBilling(have, true),
  );
  return async function (request, reply) {
    await byRole.call(this, request, reply);
    const { user, roles: have } = authOf(request);
    const [group] = await app.ctx.db
      .select({ operator: groups.platformOperator })
      .from(groups)
      .where(eq(groups.id, user.groupId));
    if (!canUsePlatformBilling(have, group?.operator ?? false)) {
      throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
    }
  };
}
