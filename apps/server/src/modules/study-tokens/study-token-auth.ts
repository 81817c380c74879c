import { eq } from 'drizzle-orm';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { AppError, MESSAGES } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportStatuses, studies, users } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { rolesOf } from '../current-user/current-user.js';
import { type TWeasisGrant, WEASIS_TOKEN_PREFIX, verifyWeasisToken } from './weasis-token.js';

/**
 * The user a study token speaks for, active, with the study it is bound to (the archive study of the
 * token's report row); 401 otherwise (a Weasis download after expiry, a forged or revoked user).
 */
export async function authOfStudyToken(
  ctx: AppContext,
  token: string,
): Promise<{ auth: TAuth; grant: TWeasisGrant; studyInstanceUid: string }> {
  const check = await verifyWeasisToken(ctx, token);
  if (!check.ok) {
    throw new AppError(
      'UNAUTHORIZED',
      check.reason === 'EXPIRED' ? 'This Weasis link has expired' : 'This Weasis link is not valid',
    );
  }
  const [[user], [study]] = await Promise.all([
    ctx.db.select().from(users).where(eq(users.id, check.grant.userId)),
    ctx.db
      .select({ studyInstanceUid: studies.studyInstanceUid })
      .from(reportStatuses)
      .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
      .where(eq(reportStatuses.id, check.grant.reportStatusId)),
  ]);
  if (!user?.active || !study) throw new AppError('UNAUTHORIZED', MESSAGES.pleaseLoginAgain);
  return {
    auth: { user, roles: rolesOf(user), sessionId: null },
    grant: check.grant,
    studyInstanceUid: study.studyInstanceUid,
  };
}

/** The study a DICOMweb request names: the path's study, or WADO-URI's studyUID. */
function requestedStudyUid(request: { params: unknown; query: unknown }): string | undefined {
  const fromPath = (request.params as { study?: unknown } | undefined)?.study;
  if (typeof fromPath === 'string') return fromPath;
  const fromQuery = (request.query as { studyUID?: unknown } | undefined)?.studyUID;
  return typeof fromQuery === 'string' ? fromQuery : undefined;
}

const BEARER_STUDY_TOKEN = new RegExp(`^Bearer\\s+(${WEASIS_TOKEN_PREFIX.replace('.', '\\.')}\\S+)$`, 'i');

/**
 * The onRequest hook of the DICOMweb read routes: a Weasis study token (`Authorization: Bearer
 * rfv1.…`) authenticates as its user for its one study — any request that names another study, or
 * none (a search across studies), is 403 — and anything else goes through the usual session/API
 * token check (`app.requireUser`). The user's own access still applies to every read (their scope).
 */
export function requireUserOrStudyToken(app: FastifyInstance): onRequestAsyncHookHandler {
  return async function (request, reply) {
    const token = BEARER_STUDY_TOKEN.exec(request.headers.authorization ?? '')?.[1];
    if (!token) {
      await app.requireUser.call(this, request, reply);
      return;
    }
    const { auth, studyInstanceUid } = await authOfStudyToken(app.ctx, token);
    if (requestedStudyUid(request) !== studyInstanceUid) {
      throw new AppError('FORBIDDEN', 'This Weasis link opens one study only');
    }
    request.auth = auth;
  };
}
