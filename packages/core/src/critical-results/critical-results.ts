import { z } from 'zod';
import { canChat } from '../chat/chat.js';
import { type TRole, hasRole } from '../identity/roles.js';
import { type TReportRowFacts, checkReportHolder, reportingActorOf } from '../reporting/rules.js';
import { ESCALATION_MINUTES_MESSAGE } from './escalation.js';

export * from './escalation.js';

/*
 * Closed-loop critical results (issue 23 §5; the workflow of PowerScribe's critical results): the
 * radiologist marks a finding critical while reporting, the center and the referring doctor are told
 * at once (in the app, by SMS and e-mail), someone acknowledges it, and unacknowledged after the
 * group's time it escalates to the group's admins. The server answers with these rules (403 with the
 * message) and the screens show or hide their buttons with the same ones.
 * Decisions: apps/server/src/modules/critical-results/README.md.
 */

/**
 * The categories, after the ACR practice parameter for communicating diagnostic imaging findings:
 * findings that need action at once, the same day, and the unexpected but significant ones.
 */
export const CRITICAL_RESULT_CATEGORIES = ['CRITICAL', 'URGENT', 'UNEXPECTED'] as const;
export type TCriticalResultCategory = (typeof CRITICAL_RESULT_CATEGORIES)[number];

export const CRITICAL_RESULT_CATEGORY_LABELS: Record<TCriticalResultCategory, string> = {
  CRITICAL: 'Critical (immediate)',
  URGENT: 'Urgent (same day)',
  UNEXPECTED: 'Unexpected significant',
};

/**
 * The states: RAISED → ACKNOWLEDGED, or RAISED → ESCALATED → ACKNOWLEDGED. An acknowledged result
 * stays so (it is the end of the loop).
 */
export const CRITICAL_RESULT_STATES = ['RAISED', 'ESCALATED', 'ACKNOWLEDGED'] as const;
export type TCriticalResultState = (typeof CRITICAL_RESULT_STATES)[number];

export function criticalResultStateOf(result: {
  acknowledgedAt: string | Date | null;
  escalatedAt: string | Date | null;
}): TCriticalResultState {
  if (result.acknowledgedAt !== null) return 'ACKNOWLEDGED';
  return result.escalatedAt !== null ? 'ESCALATED' : 'RAISED';
}

/** The finding's text: a short sentence or two for an SMS, not a report. */
export const CRITICAL_FINDING_MAX_LENGTH = 500;

export const CRITICAL_RESULT_MESSAGES = {
  findingEmpty: 'Please describe the critical finding',
  findingTooLong: `A critical finding can have at most ${CRITICAL_FINDING_MAX_LENGTH} characters`,
  category: `Please choose a category: ${CRITICAL_RESULT_CATEGORIES.join(', ')}`,
  notRaiser: 'Only the doctor reporting this study can raise a critical result',
  notAcknowledger:
    'Only the center, the referring doctor or (after escalation) a group admin can acknowledge',
  adminBeforeEscalation:
    'A group admin can acknowledge a critical result only after it has escalated to the admins',
  notFound: 'Critical result not found',
  notReader: 'Your role does not see critical results',
  escalationMinutes: ESCALATION_MINUTES_MESSAGE,
} as const;

/** A refusal: 403 with the message (the same shape as reporting's). */
export interface TCriticalResultRefusal {
  kind: 'FORBIDDEN' | 'CONFLICT';
  message: string;
  field: string;
}

/** Whether these roles could ever raise one: a doctor (who writes reports as the doctor). */
export function mayRaiseCriticalResults(roles: readonly TRole[]): boolean {
  return reportingActorOf(roles, { awaitingVerification: false }) === 'DOCTOR';
}

/**
 * Who raises: the doctor who may write this row's report (reporting's own rule, core
 * `checkReportHolder`: the row is locked by them, or assigned to them, or in the doctors' pool).
 * Typists type for a doctor but a critical finding is the doctor's judgement; verifiers, admins and
 * the center do not raise.
 */
export function checkRaiseCriticalResult(input: {
  roles: readonly TRole[];
  userId: number;
  row: TReportRowFacts;
}): TCriticalResultRefusal | null {
  if (!mayRaiseCriticalResults(input.roles)) {
    return { kind: 'FORBIDDEN', message: CRITICAL_RESULT_MESSAGES.notRaiser, field: 'roles' };
  }
  const holder = checkReportHolder({ doctorUserId: input.userId, row: input.row });
  if (!holder) return null;
  if (holder.kind === 'CONFLICT') return { kind: 'CONFLICT', message: holder.message, field: holder.field };
  // Locked by or assigned to another doctor: that doctor reports it (reporting's words say why).
  return {
    kind: 'FORBIDDEN',
    message: `${CRITICAL_RESULT_MESSAGES.notRaiser}: ${holder.message}`,
    field: holder.field,
  };
}

/** The center's staff who answer for its studies (not its patients or its lab front desk). */
const CENTER_STAFF_ROLES: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_OFFLINE_HYBRID',
];
const GROUP_ADMIN_ROLES: readonly TRole[] = ['ROLE_GROUP', 'ROLE_ADMIN'];

/** The group admins a critical result escalates to, and who may acknowledge it after. */
export function isCriticalResultAdmin(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...GROUP_ADMIN_ROLES);
}

/** Whether these roles could ever acknowledge one (else 403 before any row is read). */
export function mayAcknowledgeCriticalResults(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...CENTER_STAFF_ROLES, 'ROLE_REFERRING_DOCTOR', ...GROUP_ADMIN_ROLES);
}

/**
 * Who reads a study's critical results (and the open list): the staff who work on studies (core
 * `canChat`: they raise, route, type, verify, audit, acknowledge) and the referring doctor; not the
 * patient, a viewer account or the billing and sales roles.
 */
export function mayReadCriticalResults(roles: readonly TRole[]): boolean {
  return canChat(roles) || hasRole(roles, 'ROLE_REFERRING_DOCTOR');
}

export interface TAcknowledger {
  roles: readonly TRole[];
  userId: number;
  centerId: number | null;
}

/**
 * Who acknowledges: the row's center staff, the referring doctor linked to the study, and once it
 * has escalated the group's admins. A result already acknowledged may be "acknowledged" again by
 * any of them: the answer is the first acknowledgment (idempotent, README).
 */
export function checkAcknowledgeCriticalResult(input: {
  user: TAcknowledger;
  row: { centerId: number; referringDoctorUserId: number | null };
  state: TCriticalResultState;
}): TCriticalResultRefusal | null {
  const { user, row, state } = input;
  if (hasRole(user.roles, ...CENTER_STAFF_ROLES) && user.centerId === row.centerId) return null;
  if (hasRole(user.roles, 'ROLE_REFERRING_DOCTOR') && row.referringDoctorUserId === user.userId) return null;
  if (isCriticalResultAdmin(user.roles)) {
    if (state !== 'RAISED') return null;
    return { kind: 'FORBIDDEN', message: CRITICAL_RESULT_MESSAGES.adminBeforeEscalation, field: 'state' };
  }
  return { kind: 'FORBIDDEN', message: CRITICAL_RESULT_MESSAGES.notAcknowledger, field: 'roles' };
}

// ── contracts ──

const ZEntityId = z.coerce.number().int().positive();

/** The finding: trimmed, 1–CRITICAL_FINDING_MAX_LENGTH characters, plain text (never HTML). */
export const ZCriticalFinding = z
  .string({ error: CRITICAL_RESULT_MESSAGES.findingEmpty })
  .transform((text) => text.trim())
  .pipe(
    z
      .string()
      .min(1, CRITICAL_RESULT_MESSAGES.findingEmpty)
      .max(CRITICAL_FINDING_MAX_LENGTH, CRITICAL_RESULT_MESSAGES.findingTooLong),
  );

/** POST /api/critical-results. */
export const ZRaiseCriticalResultRequest = z
  .object({
    /** The study row (report status id). */
    entityId: ZEntityId,
    category: z.enum(CRITICAL_RESULT_CATEGORIES, { error: CRITICAL_RESULT_MESSAGES.category }),
    finding: ZCriticalFinding,
  })
  .meta({ id: 'RaiseCriticalResultRequest' });
export type TRaiseCriticalResultRequest = z.infer<typeof ZRaiseCriticalResultRequest>;

/** GET /api/critical-results?entityId=. */
export const ZCriticalResultsQuery = z.object({ entityId: ZEntityId });
export const ZCriticalResultIdParams = z.object({ id: ZEntityId });

/** One step of the loop as the timeline holds it. */
export const ZCriticalResultStep = z.object({
  type: z.enum(['RAISED', 'DELIVERED', 'ACKNOWLEDGED', 'ESCALATED']),
  at: z.string(),
  /** Who acted (raised, acknowledged); null for the system's steps (delivery, escalation). */
  by: z.string().nullable(),
  /** Delivery: the channel (SMS, EMAIL) and the address; escalation: the admins told. */
  channel: z.string().nullable(),
  to: z.string().nullable(),
});
export type TCriticalResultStep = z.infer<typeof ZCriticalResultStep>;

export const ZCriticalResult = z
  .object({
    id: z.number().int(),
    /** The study row (report status id). */
    entityId: z.number().int(),
    patientName: z.string(),
    studyName: z.string(),
    category: z.enum(CRITICAL_RESULT_CATEGORIES),
    finding: z.string(),
    state: z.enum(CRITICAL_RESULT_STATES),
    raisedAt: z.string(),
    /** The raising doctor's name (else e-mail). */
    raisedBy: z.string().nullable(),
    /** When it escalates (or escalated) unless acknowledged. */
    escalationDueAt: z.string(),
    escalatedAt: z.string().nullable(),
    acknowledgedAt: z.string().nullable(),
    acknowledgedBy: z.string().nullable(),
    /** Whether the caller may acknowledge it now (core checkAcknowledgeCriticalResult). */
    canAcknowledge: z.boolean(),
    steps: z.array(ZCriticalResultStep),
  })
  .meta({ id: 'CriticalResult' });
export type TCriticalResult = z.infer<typeof ZCriticalResult>;

export const ZCriticalResults = z.array(ZCriticalResult).meta({ id: 'CriticalResults' });

/** The steps of one result, from the row's study events (oldest first). */
export function criticalResultSteps(
  criticalResultId: number,
  events: ReadonlyArray<{
    eventType: string;
    detail: Record<string, unknown> | null;
    createdAt: string;
    actorName: string | null;
    actorEmail: string | null;
  }>,
): TCriticalResultStep[] {
  const prefix = 'CRITICAL_RESULT_';
  const steps: TCriticalResultStep[] = [];
  for (const e of events) {
    if (!e.eventType.startsWith(prefix) || e.detail?.criticalResultId !== criticalResultId) continue;
    const type = e.eventType.slice(prefix.length) as TCriticalResultStep['type'];
    const str = (key: string) => (typeof e.detail?.[key] === 'string' ? (e.detail[key] as string) : null);
    steps.push({
      type,
      at: e.createdAt,
      by: e.actorName || e.actorEmail || null,
      channel: str('channel'),
      to: str('to'),
    });
  }
  return steps;
}
