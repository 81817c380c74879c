import {
  MESSAGE_SIGNUP_PASSWORD_TOO_SHORT,
  PASSWORD_MIN_LENGTH,
  ZSignupRequest,
  passwordLength,
  passwordProblem,
  type TSignupRequest,
} from '@radflow/core';
import { ApiError } from '../../api/client';

/** The sign-up form's fields after the mobile step. */
export interface TSignupDetails {
  otp: string;
  groupName: string;
  adminName: string;
  email: string;
  password: string;
}
export type TSignupField = keyof TSignupDetails | 'mobile';
export type TFieldErrors = Partial<Record<TSignupField, string>>;

/**
 * The details as the server will judge them (core ZSignupRequest, and the password rules the browser
 * can check: core passwordProblem; the server adds the common-password list): the errors by field,
 * or the request to send.
 */
export function checkSignup(
  mobile: string,
  details: TSignupDetails,
): { ok: true; request: TSignupRequest } | { ok: false; errors: TFieldErrors } {
  const request = { mobile, ...details };
  const parsed = ZSignupRequest.safeParse(request);
  const errors: TFieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as TSignupField;
      errors[field] ??= issue.message;
    }
  }
  if (!errors.password) {
    const problem =
      passwordLength(details.password) < PASSWORD_MIN_LENGTH
        ? MESSAGE_SIGNUP_PASSWORD_TOO_SHORT
        : passwordProblem(details.password, { email: details.email, identifier: details.adminName });
    if (problem) errors.password = problem;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request };
}

/** The server's refusal: its message, and the field it names (additionalInfo) when it names one. */
export function refusalOf(error: unknown): { message: string; field: string | null; status: number } {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown; additionalInfo?: unknown } | null;
    const message = body && typeof body.errorDescription === 'string' ? body.errorDescription : error.message;
    const field = body && typeof body.additionalInfo === 'string' ? body.additionalInfo : null;
    return { message, field, status: error.status };
  }
  return { message: error instanceof Error ? error.message : 'Please try again', field: null, status: 0 };
}
