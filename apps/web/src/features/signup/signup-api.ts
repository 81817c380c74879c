import {
  ZGenerateOtpResponse,
  ZGettingStarted,
  ZSignupResponse,
  type TGettingStarted,
  type TSignupRequest,
  type TSignupResponse,
} from '@radflow/core';
import { apiRequest } from '../../api/client';

/** A new group's sign-up calls (issue 26 §4; the server's modules/signup). The page shows failures itself. */

export function requestSignupCode(mobile: string): Promise<{ sent: boolean; expiresInSeconds: number }> {
  return apiRequest('/api/signup/otp', { json: { mobile }, schema: ZGenerateOtpResponse, quiet: true });
}

export function signUp(request: TSignupRequest): Promise<TSignupResponse> {
  return apiRequest('/api/signup', { json: request, schema: ZSignupResponse, quiet: true });
}

export const GETTING_STARTED_QUERY_KEY = ['group', 'getting-started'] as const;

export function fetchGettingStarted(signal?: AbortSignal): Promise<TGettingStarted> {
  return apiRequest('/api/group/getting-started', { schema: ZGettingStarted, quiet: true, signal });
}
