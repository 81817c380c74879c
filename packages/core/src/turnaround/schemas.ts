import { z } from 'zod';
import { REPORT_STATUSES } from '../worklist/statuses.js';
import { TURNAROUND_STATES } from './forecast.js';

/** A doctor as the at-risk list names them. */
export const ZTurnaroundDoctor = z.object({ email: z.string(), name: z.string() });

/** One study of GET /turnaround/at-risk: an open study AT_RISK or BREACHED (core forecastTurnaround). */
export const ZTurnaroundAtRiskRow = z.object({
  id: z.number().int(),
  patientName: z.string(),
  studyName: z.string(),
  modality: z.string(),
  centerName: z.string(),
  urgent: z.boolean(),
  status: z.enum(REPORT_STATUSES),
  state: z.enum(TURNAROUND_STATES).exclude(['ON_TRACK']),
  /** ISO instants. */
  deadline: z.string(),
  /** Whole minutes to the deadline, rounded down; negative once breached. */
  timeLeftMinutes: z.number().int(),
  /** When it is forecast to be signed off; null when nobody who can read it has it. */
  forecastFinish: z.string().nullable(),
  queuePosition: z.number().int().nullable(),
  assignedTo: ZTurnaroundDoctor.nullable(),
  /** The doctor to reassign it to, and when they would sign it off; null when none would be sooner. */
  suggested: ZTurnaroundDoctor.extend({ forecastFinish: z.string() }).nullable(),
});
export type TTurnaroundAtRiskRow = z.infer<typeof ZTurnaroundAtRiskRow>;

/**
 * The most rows one answer lists (the counts are always whole): on a bad day every open study of a
 * group may be late, and a screen of thousands helps nobody; the first ones are those to act on.
 */
export const AT_RISK_ROWS_MAX = 200;

export const ZTurnaroundAtRiskResponse = z.object({
  /** The group's signOffTimeLimit in minutes; null = no limit set, so nothing is ever at risk. */
  signOffTimeLimit: z.number().int().nullable(),
  /** The server's clock the forecast was made at (ISO). */
  now: z.string(),
  /** How many open studies are at risk and how many are breached (all of them, not only those listed). */
  counts: z.object({ atRisk: z.number().int(), breached: z.number().int() }),
  /**
   * AT_RISK first (those a reassignment can still save), the least time left first; then BREACHED,
   * the longest overdue first. At most AT_RISK_ROWS_MAX.
   */
  rows: z.array(ZTurnaroundAtRiskRow),
});
export type TTurnaroundAtRiskResponse = z.infer<typeof ZTurnaroundAtRiskResponse>;
