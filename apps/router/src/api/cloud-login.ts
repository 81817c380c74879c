import { hostname } from 'node:os';
import {
  AppError,
  DEVICE_ID_HEADER,
  DEVICE_NAME_HEADER,
  OFFLINE_REPORT_GRANT_PATH,
  REPORT_TEMPLATES_PATH,
  ZCurrentUser,
  ZOfflineReportGrant,
  ZReportTemplate,
  hasRole,
  type TReportTemplate,
} from '@radflow/core';
import { z } from 'zod';
import type { CloudLogin, VerifiedUser } from './ports.js';

export const MESSAGE_CLOUD_UNREACHABLE = 'The cloud could not be reached to check the sign-in';
export const MESSAGE_ROUTER_CENTER_ONLY = 'The router is for center users only';

const COOKIE_PAIR = /^([^=;\s]+)=([^;]*)/;

/**
 * Verifies a user's credentials with the cloud itself (API.md "Who the user is"): the router signs
 * in with them (POST /api/do-login), takes the current user the cloud answers, and signs that cloud
 * session out at once. The router keeps neither the password nor the cloud session; only its own
 * router session (sessions.ts) results. A hybrid doctor's check also asks, with that session, for
 * their offline grant (HYBRID.md): the proof, sent with their offline saves, that they wrote them;
 * and for their report templates, which the editor offers offline.
 */
export function createCloudLogin(options: {
  serverUrl: string;
  fetch?: typeof fetch;
  deviceName?: string;
}): CloudLogin {
  const doFetch = options.fetch ?? fetch;
  const base = options.serverUrl.replace(/\/+$/, '');
  // Center users skip device approval (SIGN-IN.md step 4); the headers are what the cloud requires.
  const device = {
    [DEVICE_ID_HEADER]: `radflow-router-${hostname()}`,
    [DEVICE_NAME_HEADER]: options.deviceName ?? `Radflow router on ${hostname()}`,
  };

  return {
    async verify({ email, password }): Promise<VerifiedUser> {
      let response: Response;
      try {
        response = await doFetch(`${base}/api/do-login`, {
          method: 'POST',
          headers: { ...device, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch {
        throw new AppError('UPSTREAM_FAILED', MESSAGE_CLOUD_UNREACHABLE);
      }
      const answer: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        // The cloud's own refusal (wrong credentials 401, device 403, throttled 429) passes through.
        const description =
          typeof answer === 'object' && answer !== null && 'errorDescription' in answer
            ? String((answer as { errorDescription: unknown }).errorDescription)
            : `The cloud refused the sign-in (${response.status})`;
        if (response.status === 401) throw new AppError('UNAUTHORIZED', description);
        if (response.status === 403) throw new AppError('FORBIDDEN', description);
        if (response.status === 429) throw new AppError('TOO_MANY_REQUESTS', description);
        if (response.status < 500) throw new AppError('BAD_REQUEST', description);
        throw new AppError('UPSTREAM_FAILED', description);
      }
      const cookie = cloudCookieOf(response);
      try {
        const user = ZCurrentUser.safeParse(answer);
        if (!user.success)
          throw new AppError('UPSTREAM_FAILED', 'The cloud answered the sign-in unexpectedly');
        // spec-lab §6: the router app is for centers only; a center's hybrid users (spec-core §3: their
        // roles are OFFLINE_HYBRID alone) read and report its studies on it (HYBRID.md).
        const hybrid = user.data.hybridModeOn && hasRole(user.data.roles, 'ROLE_OFFLINE_HYBRID');
        if (!hybrid && !hasRole(user.data.roles, 'ROLE_CENTER'))
          throw new AppError('FORBIDDEN', MESSAGE_ROUTER_CENTER_ONLY);
        const offlineGrant = hybrid ? await askOfflineGrant(doFetch, base, device, cookie) : undefined;
        const templates = hybrid ? await askTemplates(doFetch, base, device, cookie) : undefined;
        return {
          email: user.data.email,
          identifier: user.data.identifier,
          hybrid,
          ...(offlineGrant ? { offlineGrant } : {}),
          ...(templates ? { templates } : {}),
        };
      } finally {
        await signOutOfCloud(doFetch, base, device, cookie);
      }
    },
  };
}

/** The session cookie pairs of the cloud's sign-in answer, as a Cookie header. */
function cloudCookieOf(login: Response): string {
  return login.headers
    .getSetCookie()
    .map((line) => COOKIE_PAIR.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}=${m[2]}`)
    .join('; ');
}

/**
 * A hybrid doctor's grant, asked with their own fresh session. Undefined when the cloud gives none
 * (a doctor without the stored doctor role): they still sign in, their offline saves wait for one.
 */
async function askOfflineGrant(
  doFetch: typeof fetch,
  base: string,
  device: Record<string, string>,
  cookie: string,
): Promise<string | undefined> {
  if (!cookie) return undefined;
  const response = await doFetch(`${base}${OFFLINE_REPORT_GRANT_PATH}`, {
    method: 'POST',
    headers: { ...device, Cookie: cookie },
    signal: AbortSignal.timeout(15_000),
  }).catch(() => null);
  if (!response?.ok) return undefined;
  const grant = ZOfflineReportGrant.safeParse(await response.json().catch(() => null));
  return grant.success ? grant.data.grant : undefined;
}

/**
 * A hybrid doctor's report templates (theirs and the group's), read with their own fresh session for
 * the editor offline (HYBRID.md "Templates offline"). Undefined when the cloud does not answer them:
 * the templates kept from an earlier sign-in stay.
 */
async function askTemplates(
  doFetch: typeof fetch,
  base: string,
  device: Record<string, string>,
  cookie: string,
): Promise<TReportTemplate[] | undefined> {
  if (!cookie) return undefined;
  const response = await doFetch(`${base}${REPORT_TEMPLATES_PATH}`, {
    headers: { ...device, Cookie: cookie },
    signal: AbortSignal.timeout(15_000),
  }).catch(() => null);
  if (!response?.ok) return undefined;
  const templates = ZReportTemplateList.safeParse(await response.json().catch(() => null));
  return templates.success ? templates.data : undefined;
}

const ZReportTemplateList = z.array(ZReportTemplate);

/** Ends the cloud session the check opened, so no cloud credential outlives the check. */
async function signOutOfCloud(
  doFetch: typeof fetch,
  base: string,
  device: Record<string, string>,
  cookie: string,
): Promise<void> {
  if (!cookie) return;
  await doFetch(`${base}/api/do-logout`, {
    method: 'POST',
    headers: { ...device, Cookie: cookie },
    signal: AbortSignal.timeout(15_000),
  }).catch(() => undefined); // the session also expires on its own (SESSION_TTL_HOURS)
}
