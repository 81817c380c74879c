import { z } from 'zod';
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH, normalizeLoginIdentifier } from '../common/validation.js';
import { ZMobileRequest, ZOtpCode } from '../identity/schemas.js';
import { passwordLength } from '../identity/password-rules.js';

/**
 * A new group's sign-up (issue 26 §4; ours: the spec names the page /signup and its OTP calls, not
 * the body). POST /api/signup/otp sends a sign-up code to the mobile; POST /api/signup creates the
 * group and its first admin with that code and signs them in.
 */

export const MESSAGE_SIGNUP_PASSWORD_TOO_SHORT = `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const MESSAGE_SIGNUP_EMAIL_INVALID = 'email must be a valid e-mail address';

/** POST /api/signup/otp: the mobile's rule and message are the login's (spec-core §4 Login). */
export const ZSignupOtpRequest = ZMobileRequest;

export const ZSignupRequest = z.object({
  mobile: ZMobileRequest.shape.mobile,
  otp: z.string().trim().pipe(ZOtpCode),
  groupName: z
    .string()
    .trim()
    .min(1, 'groupName is required')
    .max(200, 'groupName is at most 200 characters'),
  adminName: z
    .string()
    .trim()
    .min(1, 'adminName is required')
    .max(200, 'adminName is at most 200 characters'),
  email: z
    .string()
    .max(254, MESSAGE_SIGNUP_EMAIL_INVALID)
    .transform(normalizeLoginIdentifier)
    .refine((v) => EMAIL_PATTERN.test(v), MESSAGE_SIGNUP_EMAIL_INVALID),
  // The rest of the password rules (personal words, the common list) are checked by the server.
  password: z
    .string()
    .max(200, 'password is at most 200 characters')
    .refine((v) => passwordLength(v) >= PASSWORD_MIN_LENGTH, MESSAGE_SIGNUP_PASSWORD_TOO_SHORT),
});
export type TSignupRequest = z.input<typeof ZSignupRequest>;

/** Where the new admin goes: their group's home (the admin study list with its getting-started card). */
export const ZSignupResponse = z
  .object({ groupId: z.number().int(), email: z.string(), redirectTo: z.string() })
  .meta({ id: 'SignupResponse' });
export type TSignupResponse = z.infer<typeof ZSignupResponse>;

/**
 * GET /api/signup/getting-started: the new group's checklist, each step done or not. Shown while the
 * group has no study.
 */
export const ZGettingStarted = z
  .object({
    hasCenter: z.boolean(),
    hasRadiologist: z.boolean(),
    hasStudy: z.boolean(),
    hasBillingDetails: z.boolean(),
  })
  .meta({ id: 'GettingStarted' });
export type TGettingStarted = z.infer<typeof ZGettingStarted>;
