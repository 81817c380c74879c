import { z } from 'zod';
import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Forwarding studies to a center's PACS (issue 3 §6; spec-core §2 forwarding-PACS menu and PACS
 * forward dialog, §3 Router-send record, §4 Forward to PACS, §5, §8; spec-lab §3 and §5 forwarding
 * PACS settings). Shared by the server (validation, access) and the web (form, dialog, badge).
 */

/** Texts the web shows and the server answers. The first two are the spec's words. */
export const FORWARDING_MESSAGES = {
  /** spec-lab §5: ae title, ip and port all required. */
  addAllDetails: 'Please add all details',
  /** spec-core §5: opening forwarding without a configured forwarding PACS. */
  createPacsServer: 'Please create pacs server',
  /** spec-lab §5 gives the rule (dotted IPv4, each part 0-255) but no text: ours. */
  invalidIp: 'Please enter a valid IP address',
  /** spec-lab §5 gives the rule (1-65535) but no text: ours. */
  invalidPort: 'Please enter a valid port (1-65535)',
  /** DICOM limits an AE title to 16 characters without backslash or control characters (PS3.5 §6.2). */
  invalidAeTitle: 'AE title must be at most 16 characters, without backslash',
  featureDisabled: 'Forwarding to a PACS is not enabled for this group',
  pacsNotFound: 'PACS server not found',
  studyNotFound: 'Study not found',
  nothingToResend: 'No failed instance to resend',
  noInstances: 'The study has no images to send',
} as const;

/** spec-core §8: the alert when a send to a PACS fails. */
export function formatForwardFailure(reportStatusId: number, message: string): string {
  return `Report Id: ${reportStatusId} | ${message}`;
}

/** spec-lab §5: dotted IPv4 with each part 0-255 (no leading '+', no empty parts). */
export function isIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;

/** Empty text and null count as missing, so the form's blank fields give 'Please add all details'. */
const blankAsMissing = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** A port typed in a text field or sent as a number; anything else becomes an invalid port (0). */
const toPort = (v: unknown) => {
  const value = blankAsMissing(v);
  if (typeof value === 'string') return /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : 0;
  return value;
};

const ZPresent = z.preprocess(
  blankAsMissing,
  z.union([z.string(), z.number()], { error: FORWARDING_MESSAGES.addAllDetails }),
);

/** The fields' own rules, checked once all three are present. */
const ZForwardingPacsFields = z.object({
  name: z.preprocess(blankAsMissing, z.string().trim().max(64).optional()),
  aeTitle: z
    .string({ error: FORWARDING_MESSAGES.invalidAeTitle })
    .trim()
    .regex(AE_TITLE_PATTERN, FORWARDING_MESSAGES.invalidAeTitle),
  ip: z.string({ error: FORWARDING_MESSAGES.invalidIp }).trim().refine(isIpv4, FORWARDING_MESSAGES.invalidIp),
  port: z.preprocess(
    toPort,
    z
      .number({ error: FORWARDING_MESSAGES.invalidPort })
      .int(FORWARDING_MESSAGES.invalidPort)
      .min(1, FORWARDING_MESSAGES.invalidPort)
      .max(65535, FORWARDING_MESSAGES.invalidPort),
  ),
  /** Group admins name the center; a center user's own center is used whatever is sent. */
  centerId: z.coerce.number().int().positive().optional(),
});

/**
 * spec-lab §3 forwarding PACS settings object (aeTitle, ip, port) with an optional display name;
 * spec-lab §5 validation: first all three required ('Please add all details'), then the IP dotted
 * IPv4 with parts 0-255 and the port 1-65535. The presence check runs first (a pipe), so the first
 * message is the spec's whatever the order of the fields.
 */
export const ZForwardingPacsInput = z
  .looseObject({ aeTitle: ZPresent, ip: ZPresent, port: ZPresent })
  // The fields' schema reads each value afresh, so its input type is loosened for the pipe.
  .pipe(
    ZForwardingPacsFields as unknown as z.ZodType<
      z.output<typeof ZForwardingPacsFields>,
      Record<string, unknown> & Record<'aeTitle' | 'ip' | 'port', string | number>
    >,
  );
export interface TForwardingPacsInput {
  name?: string | null;
  aeTitle?: string | null;
  ip?: string | null;
  port?: string | number | null;
  centerId?: number;
}

/**
 * The first validation message for a form's values, or null when they are valid (the web form
 * shows it as the spec's alert; the server answers the same text in a 400).
 */
export function validateForwardingPacs(values: TForwardingPacsInput): string | null {
  const parsed = ZForwardingPacsInput.safeParse(values);
  if (parsed.success) return null;
  return parsed.error.issues[0]?.message ?? FORWARDING_MESSAGES.addAllDetails;
}

export const ZForwardingPacs = z
  .object({
    id: z.number().int(),
    centerId: z.number().int(),
    name: z.string().nullable(),
    aeTitle: z.string(),
    ip: z.string(),
    port: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'ForwardingPacs' });
export type TForwardingPacs = z.infer<typeof ZForwardingPacs>;

export const ZEchoResult = z
  .object({
    ok: z.boolean(),
    /** Round trip of the association and C-ECHO, when it answered. */
    elapsedMs: z.number().nullable(),
    /** The C-ECHO response status (0 = success), when one came. */
    status: z.number().int().nullable(),
    /** Why it failed (connection refused, association rejected, timeout …). */
    error: z.string().nullable(),
  })
  .meta({ id: 'EchoResult' });
export type TEchoResult = z.infer<typeof ZEchoResult>;

/** spec-core §3 Router-send record statuses. */
export const FORWARD_STATUSES = ['IN_PROGRESS', 'FAILED', 'SEND'] as const;
export type TForwardStatus = (typeof FORWARD_STATUSES)[number];
/** Per instance: waiting for its first attempt, sent, or failed (retried while attempts remain). */
export const FORWARD_INSTANCE_STATUSES = ['PENDING', 'SEND', 'FAILED'] as const;
export type TForwardInstanceStatus = (typeof FORWARD_INSTANCE_STATUSES)[number];

export const ZForwardSendRequest = z
  .object({
    reportStatusId: z.coerce.number().int().positive(),
    pacsId: z.coerce.number().int().positive(),
  })
  .meta({ id: 'ForwardSendRequest' });
export type TForwardSendRequest = z.infer<typeof ZForwardSendRequest>;

/** One send of a study to one destination (spec-core §3 Router-send record, §4 Forward to PACS). */
export const ZForwardRecord = z
  .object({
    id: z.number().int(),
    reportStatusId: z.number().int(),
    studyInstanceId: z.string(),
    status: z.enum(FORWARD_STATUSES),
    aeTitle: z.string(),
    /** "host:port" */
    destination: z.string(),
    total: z.number().int(),
    pending: z.number().int(),
    success: z.number().int(),
    failed: z.number().int(),
    percentage: z.number().int(),
    /** When the failed instances are tried again; null when no retry is scheduled. */
    nextRetryAt: z.string().nullable(),
    lastError: z.string().nullable(),
    /** 'Report Id: {id} | {message}' for a FAILED record (spec-core §8), else null. */
    failureMessage: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ForwardRecord' });
export type TForwardRecord = z.infer<typeof ZForwardRecord>;

export const CASE_SEND_BADGE_STATES = ['NONE', 'SEND', 'IN_PROGRESS', 'FAILED'] as const;
export const ZCaseSendBadge = z
  .object({
    state: z.enum(CASE_SEND_BADGE_STATES),
    /** 'Case Send', '42%', 'Case Failed', or '' when the study was never forwarded. */
    label: z.string(),
    percentage: z.number().int().nullable(),
  })
  .meta({ id: 'CaseSendBadge' });
export type TCaseSendBadge = z.infer<typeof ZCaseSendBadge>;

export const ZForwardStudyStatus = z
  .object({ reportStatusId: z.number().int(), badge: ZCaseSendBadge, records: z.array(ZForwardRecord) })
  .meta({ id: 'ForwardStudyStatus' });
export type TForwardStudyStatus = z.infer<typeof ZForwardStudyStatus>;

export const ZForwardStatusQuery = z.object({
  /** Comma-separated report-status ids (at most 100). */
  reportStatusIds: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'reportStatusIds must be comma-separated numbers')
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .refine((ids) => ids.length <= 100, 'At most 100 report ids'),
});

export const ZForwardStatusResponse = z
  .object({ studies: z.array(ZForwardStudyStatus) })
  .meta({ id: 'ForwardStatusResponse' });
export type TForwardStatusResponse = z.infer<typeof ZForwardStatusResponse>;

// The badge and who-may-forward rules live in rules.ts, apart from the schemas: the
// study list draws both, and a module of zod schemas would weigh on its first load (issue 21 §6).
export { FORWARDING_ROLES, canForwardToPacs, caseSendBadge, sendPercentage } from './rules.js';

/**
 * spec-lab §3/§7 forwarding PACS settings: a center user keeps its own center's list; the group's
 * admins (ROLE_GROUP, ROLE_ADMIN) keep the list of a center of their group, named in the request.
 */
export function canManageForwardingPacs(roles: readonly TRole[]): boolean {
  return hasRole(
    roles,
    'ROLE_CENTER',
    'ROLE_CENTER_BACKUP',
    'ROLE_OFFLINE_HYBRID',
    'ROLE_GROUP',
    'ROLE_ADMIN',
  );
}
