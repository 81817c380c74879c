import { z } from 'zod';

/*
 * The escalation time of critical results, a group setting (ADMIN_PREFERENCES), on its own so the
 * settings import it without the rest of the critical-results rules.
 */

/**
 * Minutes an unacknowledged result waits before it escalates: the group's
 * ADMIN_PREFERENCES.criticalResultEscalationMinutes (set by a group admin), this default when unset.
 * The ACR asks for critical findings to be communicated within minutes to an hour.
 */
export const DEFAULT_CRITICAL_ESCALATION_MINUTES = 30;
export const MIN_CRITICAL_ESCALATION_MINUTES = 5;
export const MAX_CRITICAL_ESCALATION_MINUTES = 1440;

export const ESCALATION_MINUTES_MESSAGE = `Escalation time must be between ${MIN_CRITICAL_ESCALATION_MINUTES} and ${MAX_CRITICAL_ESCALATION_MINUTES} minutes`;

/** The group setting's value as stored: whole minutes within the bounds, or null for the default. */
export const ZCriticalEscalationMinutes = z
  .number()
  .int(ESCALATION_MINUTES_MESSAGE)
  .min(MIN_CRITICAL_ESCALATION_MINUTES, ESCALATION_MINUTES_MESSAGE)
  .max(MAX_CRITICAL_ESCALATION_MINUTES, ESCALATION_MINUTES_MESSAGE)
  .nullable();

/** The group's escalation time in minutes (its setting, else the default). */
export function escalationMinutesOf(flags: { criticalResultEscalationMinutes: number | null }): number {
  return flags.criticalResultEscalationMinutes ?? DEFAULT_CRITICAL_ESCALATION_MINUTES;
}

/** When a result raised at `raisedAt` escalates unless acknowledged before. */
export function escalationDueAt(raisedAt: Date, minutes: number): Date {
  return new Date(raisedAt.getTime() + minutes * 60_000);
}
