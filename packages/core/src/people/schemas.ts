import { z } from 'zod';
import { ZRole } from '../identity/schemas.js';
import {
  EMAIL_PATTERN,
  MOBILE_PATTERN,
  PASSWORD_MIN_LENGTH,
  normalizeLoginIdentifier,
} from '../common/validation.js';
import { MESSAGE_PASSWORD_TOO_SHORT, passwordLength } from '../identity/password-rules.js';
import {
  AE_TITLES_PER_CENTER_MAX,
  MESSAGE_AE_TITLE_INVALID,
  aeTitleProblem,
  normalizeAeTitle,
} from './rules.js';

/** Group-admin calls of issue 21 §9 (ours: the spec names no user or center management calls). */

const MESSAGE_EMAIL_INVALID = 'email must be a valid e-mail address';
const MESSAGE_MOBILE_INVALID = 'Mobile number should be 10 digit and start with 6,7,8 or 9';

const ZEmail = z
  .string()
  .max(254)
  .transform(normalizeLoginIdentifier)
  .refine((v) => EMAIL_PATTERN.test(v), MESSAGE_EMAIL_INVALID);

/** A mobile number or nothing: '' and null both mean none. */
const ZOptionalMobile = z
  .string()
  .max(20)
  .nullable()
  .optional()
  .transform((v) => (v ? v.trim() : null))
  .refine((v) => v === null || v === '' || MOBILE_PATTERN.test(v), MESSAGE_MOBILE_INVALID)
  .transform((v) => (v ? v : null));

const ZAeTitle = z
  .string()
  .max(64, MESSAGE_AE_TITLE_INVALID)
  .refine((v) => aeTitleProblem(v) === null, MESSAGE_AE_TITLE_INVALID)
  .transform(normalizeAeTitle);

/**
 * A center as the admin writes it: name, e-mail, the AE titles its modalities call with, a contact.
 * The body schemas here carry no OpenAPI component id: their defaults make input and output differ.
 */
export const ZCenterInput = z.object({
  name: z.string().trim().min(1, 'name is required').max(200),
  email: ZEmail,
  aeTitles: z.array(ZAeTitle).max(AE_TITLES_PER_CENTER_MAX).default([]),
  contactName: z.string().trim().max(200).default(''),
  contactMobile: ZOptionalMobile,
  /**
   * The region the region dashboard files the center under (issue 24 §3); '' = none. Left out, an
   * edit keeps the stored one (a client that knows no regions does not wipe them).
   */
  region: z.string().trim().max(100).optional(),
});
export type TCenterInput = z.infer<typeof ZCenterInput>;

export const ZCenter = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    aeTitles: z.array(z.string()),
    contactName: z.string(),
    contactMobile: z.string().nullable(),
    region: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Center' });
export type TCenter = z.infer<typeof ZCenter>;
export const ZCenterList = z.array(ZCenter).meta({ id: 'CenterList' });

export const ZPeopleIdParams = z.object({ id: z.coerce.number().int().positive() });

export const INVITATION_CHANNELS = ['EMAIL', 'SMS'] as const;
export type TInvitationChannel = (typeof INVITATION_CHANNELS)[number];

const ZPersonFields = {
  identifier: z.string().trim().min(1, 'identifier is required').max(200),
  mobileNumber: ZOptionalMobile,
  roles: z.array(ZRole).min(1, 'Choose at least one role').max(22),
  centerId: z.number().int().positive().nullable().default(null),
};

/** POST /api/admin/users: a new user, told by e-mail or SMS with a link to set their password. */
export const ZInviteUserRequest = z.object({
  email: ZEmail,
  ...ZPersonFields,
  channel: z.enum(INVITATION_CHANNELS).default('EMAIL'),
});
export type TInviteUserRequest = z.input<typeof ZInviteUserRequest>;

/** PUT /api/admin/users/{id}: name, mobile, roles and center (the e-mail is the sign-in, kept). */
export const ZUpdateUserRequest = z.object(ZPersonFields);
export type TUpdateUserRequest = z.input<typeof ZUpdateUserRequest>;

export const ZManagedUser = z
  .object({
    id: z.number().int(),
    email: z.string(),
    identifier: z.string(),
    mobileNumber: z.string().nullable(),
    roles: z.array(ZRole),
    centerId: z.number().int().nullable(),
    active: z.boolean(),
    /** An invitation is out and no password was set through it yet. */
    invitationPending: z.boolean(),
    /** A typist's doctors (the typist ↔ doctor mapping); empty for everyone else. */
    doctorIds: z.array(z.number().int()),
  })
  .meta({ id: 'ManagedUser' });
export type TManagedUser = z.infer<typeof ZManagedUser>;
export const ZManagedUserList = z.array(ZManagedUser).meta({ id: 'ManagedUserList' });

/** PUT /api/admin/users/{id}/doctors: the doctors a typist types for (replaces the list). */
export const ZTypistDoctorsRequest = z
  .object({ doctorIds: z.array(z.number().int().positive()).max(500) })
  .meta({ id: 'TypistDoctorsRequest' });

/** POST /api/admin/users/{id}/reset-password and the invitation: how the link was sent. */
export const ZPasswordLinkSent = z
  .object({ channel: z.enum(INVITATION_CHANNELS), recipient: z.string(), expiresAt: z.string() })
  .meta({ id: 'PasswordLinkSent' });

export const PEOPLE_AUDIT_ACTIONS = [
  'CENTER_CREATED',
  'CENTER_UPDATED',
  'USER_INVITED',
  'USER_UPDATED',
  'USER_DEACTIVATED',
  'USER_ACTIVATED',
  'PASSWORD_RESET_SENT',
  'INVITATION_RESENT',
  'TYPIST_DOCTORS_SET',
  'PASSWORD_SET_BY_LINK',
  /** Ours (issue 26 §4): the group signed itself up; the line of its first admin, who is the actor. */
  'GROUP_SIGNED_UP',
] as const;
export type TPeopleAuditAction = (typeof PEOPLE_AUDIT_ACTIONS)[number];

/** One line of the group's people audit (GET /api/admin/audit). */
export const ZPeopleAuditRow = z
  .object({
    id: z.number().int(),
    action: z.enum(PEOPLE_AUDIT_ACTIONS),
    actorEmail: z.string(),
    targetType: z.enum(['CENTER', 'USER']),
    targetId: z.number().int(),
    detail: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  })
  .meta({ id: 'PeopleAuditRow' });
export type TPeopleAuditRow = z.infer<typeof ZPeopleAuditRow>;
export const ZPeopleAuditList = z.array(ZPeopleAuditRow).meta({ id: 'PeopleAuditList' });

/** The token of a set-password link (base64url of 32 random bytes). */
const ZLinkToken = z.string().min(20).max(100);

/** POST /api/user-create/password-link: whom a link is for, before the password form is shown. */
export const ZPasswordLinkRequest = z.object({ token: ZLinkToken }).meta({ id: 'PasswordLinkRequest' });
export const ZPasswordLinkInfo = z
  .object({ email: z.string(), identifier: z.string(), purpose: z.enum(['INVITE', 'RESET']) })
  .meta({ id: 'PasswordLinkInfo' });
export type TPasswordLinkInfo = z.infer<typeof ZPasswordLinkInfo>;

/** POST /api/user-create/set-password: the link's token and the new password (core password rules). */
export const ZSetPasswordRequest = z
  .object({
    token: ZLinkToken,
    newPassword: z
      .string()
      .min(PASSWORD_MIN_LENGTH, MESSAGE_PASSWORD_TOO_SHORT)
      .max(200)
      .refine((v) => v.length < PASSWORD_MIN_LENGTH || passwordLength(v) >= PASSWORD_MIN_LENGTH, {
        message: MESSAGE_PASSWORD_TOO_SHORT,
      }),
  })
  .meta({ id: 'SetPasswordRequest' });
export type TSetPasswordRequest = z.infer<typeof ZSetPasswordRequest>;
