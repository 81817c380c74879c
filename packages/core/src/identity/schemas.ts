import { z } from 'zod';
import { ROLES } from './roles.js';
import {
  MOBILE_PATTERN,
  OTP_PATTERN,
  PASSWORD_MIN_LENGTH,
  normalizeLoginIdentifier,
} from '../common/validation.js';
import { MESSAGES } from '../common/messages.js';
import { MESSAGE_PASSWORD_TOO_SHORT, passwordLength } from './password-rules.js';

export const ZRole = z.enum(ROLES);

/** POST /api/do-login (form fields email and password). */
export const ZLoginForm = z
  .object({
    email: z.string().min(1, 'email is required').max(254).transform(normalizeLoginIdentifier),
    password: z.string().min(1, 'password is required').max(200),
  })
  .meta({ id: 'LoginForm' });
export type TLoginForm = z.infer<typeof ZLoginForm>;

/**
 * Ours: the deployment's support contact (server SUPPORT_PHONE / SUPPORT_EMAIL); null when not
 * configured, and the screens then send the user to their group administrator instead.
 */
export const ZSupportContact = z
  .object({ phone: z.string().nullable(), email: z.string().nullable() })
  .meta({ id: 'SupportContact' });
export type TSupportContact = z.infer<typeof ZSupportContact>;

/** spec-core §3 Current user (GET /api/user/). */
export const ZCurrentUser = z
  .object({
    email: z.string(),
    roles: z.array(ZRole),
    identifier: z.string(),
    chatUidHash: z.string(),
    proxyUrl: z.string().nullable(),
    hybridModeOn: z.boolean(),
    active: z.boolean(),
    /**
     * Ours: the user's center, null for a user of the group as a whole. The browser passes it to the
     * row rules (a center user acts on their own center's studies only, core actingRoles).
     */
    centerId: z.number().int().nullable(),
    /** Ours: who to call (voice trial, pricing, payment needed); per deployment, not per user. */
    support: ZSupportContact,
    /** Ours (issue 29 §6): the user answers the support chat (core canAnswerSupport). */
    answersSupport: z.boolean().default(false),
  })
  .meta({ id: 'CurrentUser' });
export type TCurrentUser = z.infer<typeof ZCurrentUser>;

/** Tele info (spec-core §3). */
export const ZTeleInfo = z.object({ teleUser: z.boolean() }).meta({ id: 'TeleInfo' });

export const ZMobileRequest = z
  .object({
    mobile: z
      .string()
      // spec-core §4 Login: any non-mobile value (a long e-mail too) gets the OTP message.
      .max(20, MESSAGES.otpOnlyMobile)
      .transform((v) => v.trim())
      .refine((v) => MOBILE_PATTERN.test(v), MESSAGES.otpOnlyMobile),
  })
  .meta({ id: 'MobileRequest' });
export type TMobileRequest = z.infer<typeof ZMobileRequest>;

export const ZGenerateOtpResponse = z
  .object({ sent: z.boolean(), expiresInSeconds: z.number().int() })
  .meta({ id: 'GenerateOtpResponse' });
export const ZIsNewCustomerResponse = z.object({ isNew: z.boolean() }).meta({ id: 'IsNewCustomerResponse' });

export const ZOtpCode = z.string().regex(OTP_PATTERN, 'The one-time code is 6 digits');

/** POST /api/user-create/update-password. */
export const ZUpdatePasswordRequest = z
  .object({
    currentPassword: z.string().min(1, 'currentPassword is required').max(200),
    newPassword: z
      .string()
      .min(PASSWORD_MIN_LENGTH, MESSAGE_PASSWORD_TOO_SHORT)
      .max(200)
      // Spaces around the password do not count towards its length (password-rules.ts).
      .refine((v) => v.length < PASSWORD_MIN_LENGTH || passwordLength(v) >= PASSWORD_MIN_LENGTH, {
        message: MESSAGE_PASSWORD_TOO_SHORT,
      }),
  })
  .meta({ id: 'UpdatePasswordRequest' });
export type TUpdatePasswordRequest = z.infer<typeof ZUpdatePasswordRequest>;

export const LOGIN_AUDIT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export const ZLoginAuditStatus = z.enum(LOGIN_AUDIT_STATUSES);

/** spec-core §3 Audit row, with what the Audit Logins screen shows besides. */
export const ZAuditRow = z
  .object({
    status: ZLoginAuditStatus,
    deviceId: z.string(),
    deviceName: z.string(),
    email: z.string(),
    firstApprovedAt: z.string().nullable(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
  })
  .meta({ id: 'AuditRow' });
export type TAuditRow = z.infer<typeof ZAuditRow>;

export const ZUpdateApprovalRequest = z
  .object({
    status: z.enum(['APPROVED', 'REJECTED']),
    deviceId: z.string().min(1).max(200),
    email: z.string().min(1).max(254).transform(normalizeLoginIdentifier),
  })
  .meta({ id: 'UpdateApprovalRequest' });
export type TUpdateApprovalRequest = z.infer<typeof ZUpdateApprovalRequest>;

export const LOGIN_EVENT_TYPES = [
  'LOGIN_SUCCESS',
  'LOGIN_FAILED',
  'LOGIN_RATE_LIMITED',
  'LOGIN_DEVICE_PENDING',
  'LOGIN_DEVICE_REJECTED',
  'LOGOUT',
  'OTP_SENT',
  'OTP_FAILED',
  'DEVICE_APPROVED',
  'DEVICE_REJECTED',
  'PASSWORD_CHANGED',
  /** Ours: a wrong current password on change-password (counts towards the sign-in throttle). */
  'PASSWORD_CHANGE_FAILED',
  /** Ours: a POST /user/customer/is-new look-up (its rate limit counts these). */
  'CUSTOMER_LOOKUP',
  /** Ours: a sign-up code requested for a mobile number (POST /signup/otp; its rate limit counts these). */
  'SIGNUP_OTP_REQUEST',
  /** Ours: a sign-in code requested (POST /user/generate-otp, any number; its rate limit counts these). */
  'SIGN_IN_OTP_REQUEST',
  /** Ours: a new group signed itself up; the line of its first admin. */
  'SIGNED_UP',
] as const;
export const ZLoginEventType = z.enum(LOGIN_EVENT_TYPES);

/** One line of the sign-in audit log (POST /api/user/audit/search-logs). */
export const ZLoginLogRow = z
  .object({
    id: z.number().int(),
    eventType: ZLoginEventType,
    email: z.string().nullable(),
    deviceId: z.string().nullable(),
    deviceName: z.string().nullable(),
    clientAddress: z.string().nullable(),
    actorEmail: z.string().nullable(),
    detail: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'LoginLogRow' });

/** spec-core §3 User mapping: per role, lists of users with email and active. */
export const ZUserMapping = z
  .record(z.string(), z.array(z.object({ email: z.string(), active: z.boolean() })))
  .meta({ id: 'UserMapping' });

/**
 * GET /api/user/token: a new personal token for DICOM clients, shown this once (the server keeps only
 * its hash). `token` is the spec's field; the rest is ours.
 */
export const ZApiToken = z
  .object({ token: z.string(), id: z.number().int(), expiresAt: z.string() })
  .meta({ id: 'ApiToken' });

/** One of the caller's live API tokens (GET /api/user/token/list): never the token, only its hint. */
export const ZApiTokenInfo = z
  .object({
    id: z.number().int(),
    /** The token's first characters. */
    hint: z.string(),
    /** The device of the session that minted it. */
    deviceId: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiTokenInfo' });
export type TApiTokenInfo = z.infer<typeof ZApiTokenInfo>;
export const ZApiTokenList = z.array(ZApiTokenInfo).meta({ id: 'ApiTokenList' });
export const ZApiTokenParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const ZStudyType = z
  .object({ id: z.number().int(), name: z.string(), modality: z.string() })
  .meta({ id: 'StudyType' });
