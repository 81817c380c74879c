import {
  ZApiToken,
  ZApiTokenList,
  ZCurrentUser,
  ZGroupPreferences,
  ZGenerateOtpResponse,
  ZTeleInfo,
  ZUserMapping,
  resolvePreferences,
  type TApiTokenInfo,
  type TCurrentUser,
  type TPreferenceSection,
  type TUpdatePasswordRequest,
  type TUserPreferences,
} from '@radflow/core';
import { apiRequest } from './client';
import { SESSION_PATHS } from './session-paths';

/** Session and preference calls (spec-core §7 "Session and preferences"). */

export type TUserMapping = Record<string, { email: string; active: boolean }[]>;

export function fetchCurrentUser(signal?: AbortSignal): Promise<TCurrentUser> {
  return apiRequest(SESSION_PATHS.currentUser, { schema: ZCurrentUser, quiet: true, signal });
}

/** Completed with defaults, so a section the server has not stored yet reads as its default. */
export async function fetchPreferences(signal?: AbortSignal): Promise<TUserPreferences> {
  const raw = await apiRequest<Partial<Record<TPreferenceSection, unknown>>>(SESSION_PATHS.preferences, {
    quiet: true,
    signal,
  });
  return resolvePreferences(raw ?? {});
}

/**
 * The group's sections only, completed with defaults for the rest: an assignor's session skips the
 * user preferences (spec-core §4) but its screens follow the group's switches.
 */
export async function fetchGroupPreferences(signal?: AbortSignal): Promise<TUserPreferences> {
  const group = await apiRequest(SESSION_PATHS.groupPreferences, {
    schema: ZGroupPreferences,
    quiet: true,
    signal,
  });
  return resolvePreferences(group);
}

export function fetchUserMapping(signal?: AbortSignal): Promise<TUserMapping> {
  return apiRequest(SESSION_PATHS.mapping, { schema: ZUserMapping, quiet: true, signal });
}

export function fetchTeleInfo(signal?: AbortSignal): Promise<{ teleUser: boolean }> {
  return apiRequest(SESSION_PATHS.teleInfo, { schema: ZTeleInfo, quiet: true, signal });
}

/** POST /api/do-login, form-encoded: `email` is the identifier, `password` the password or the OTP. */
export function signIn(identifier: string, password: string): Promise<unknown> {
  return apiRequest('/api/do-login', { method: 'POST', form: { email: identifier, password } });
}

export function signOut(): Promise<unknown> {
  return apiRequest('/api/do-logout', { method: 'POST', quiet: true });
}

export function requestOtp(mobile: string): Promise<{ sent: boolean; expiresInSeconds: number }> {
  return apiRequest('/api/user/generate-otp', { json: { mobile }, schema: ZGenerateOtpResponse });
}

export function updatePassword(request: TUpdatePasswordRequest): Promise<unknown> {
  return apiRequest('/api/user-create/update-password', { json: request });
}

/** GET /api/user/token: a new API token for a DICOM client, shown once. */
export function mintApiToken(): Promise<{ token: string; id: number; expiresAt: string }> {
  return apiRequest('/api/user/token', { schema: ZApiToken });
}

export function fetchApiTokens(signal?: AbortSignal): Promise<TApiTokenInfo[]> {
  return apiRequest('/api/user/token/list', { schema: ZApiTokenList, signal });
}

export function revokeApiToken(id: number): Promise<unknown> {
  return apiRequest(`/api/user/token/delete/${id}`, { method: 'DELETE' });
}
