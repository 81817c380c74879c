import { hasRole, type TRole } from '../identity/roles.js';
import { ASSIGN_ROLES } from '../worklist/actions.js';
import type { TStudyRowFacts } from '../worklist/study-row.js';
import { isPastSignOffDeadline, signOffClockStart, signOffDeadline } from '../worklist/time-exceeded.js';

/**
 * Turnaround at risk (issue 24 §4): for every open study, the time left before its sign-off limit
 * (ADMIN_PREFERENCES signOffTimeLimit, counted like spec-core §4 time exceeded: from the first
 * upload, else creation) and when it will be signed off if its doctor reads their queue at their pace
 * (./pace.ts). A study is AT_RISK when that forecast is later than its deadline, before it breaches;
 * BREACHED once past the deadline (strictly, as time exceeded); ON_TRACK otherwise. Pure: the clock,
 * the queues and the doctors are arguments, so the rule is tested with fixed histories.
 */

export const TURNAROUND_STATES = ['ON_TRACK', 'AT_RISK', 'BREACHED'] as const;
export type TTurnaroundState = (typeof TURNAROUND_STATES)[number];

const MINUTE_MS = 60_000;

/** An open study (not signed off, not deleted) as the forecast reads it. */
export interface TForecastStudy extends Pick<
  TStudyRowFacts,
  'urgent' | 'createdAt' | 'firstUploadCompletedAt'
> {
  id: number;
  /** Whose queue it is in: the assigned doctor (else the doctor holding its lock); null = nobody's. */
  doctorId: number | null;
}

/** A doctor of the group the studies may be assigned to. */
export interface TForecastDoctor {
  id: number;
  /** Shown ONLINE now (core presence `shownStatus`); only online doctors are suggested. */
  online: boolean;
  minutesPerReport: number;
}

export interface TTurnaroundForecast {
  id: number;
  deadline: Date;
  /** deadline − now, in ms; negative once breached. */
  timeLeftMs: number;
  /** When its doctor should sign it off; null when nobody who can read it has it. */
  forecastFinish: Date | null;
  /** Its place in its doctor's reading order (1 = next); null when it is in nobody's queue. */
  queuePosition: number | null;
  state: TTurnaroundState;
  /** The doctor to give it to (see bestDoctor); null when none would sign it off sooner. */
  suggestion: { doctorId: number; forecastFinish: Date } | null;
}

/** A study's place in reading order as numbers: read once, compared many times. */
interface TReadingKey {
  urgent: boolean;
  start: number;
  id: number;
}

function readingKey(s: TForecastStudy): TReadingKey {
  return { urgent: s.urgent, start: signOffClockStart(s)?.getTime() ?? Number.POSITIVE_INFINITY, id: s.id };
}

function compareKeys(a: TReadingKey, b: TReadingKey): number {
  if (a.urgent !== b.urgent) return a.urgent ? -1 : 1;
  return a.start - b.start || a.id - b.id;
}

/**
 * The order a doctor reads their queue in: urgent first, then the oldest (earliest sign-off clock
 * start, so the nearest deadline under one limit), then the lower id so the order is total.
 */
export function compareReadingOrder(a: TForecastStudy, b: TForecastStudy): number {
  return compareKeys(readingKey(a), readingKey(b));
}

/** How many keys of a queue sorted in reading order come before `key` (binary search). */
function countAhead(queue: readonly TReadingKey[], key: TReadingKey): number {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(queue[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each doctor's queue in reading order. Studies of someone not among `doctors` are in no queue. */
function doctorQueues(
  studies: readonly TForecastStudy[],
  doctorIds: ReadonlySet<number>,
): Map<number, TReadingKey[]> {
  const queues = new Map<number, TReadingKey[]>();
  for (const s of studies) {
    if (s.doctorId === null || !doctorIds.has(s.doctorId)) continue;
    const queue = queues.get(s.doctorId) ?? [];
    queue.push(readingKey(s));
    queues.set(s.doctorId, queue);
  }
  for (const queue of queues.values()) queue.sort(compareKeys);
  return queues;
}

/**
 * The suggestion rule: the doctor to give a study (its reading `key`) to is, among the ONLINE doctors
 * other than its own, the one who would sign it off first if it were added to their queue (in its
 * reading-order place, not at the end: an urgent study jumps the queue there too), at their pace.
 * Ties: the shorter queue, then the lower id. On numbers: it runs for every listed study against
 * every doctor.
 */
function bestDoctor(
  key: TReadingKey,
  ownDoctorId: number | null,
  doctors: readonly TForecastDoctor[],
  queues: ReadonlyMap<number, readonly TReadingKey[]>,
  nowMs: number,
): { doctorId: number; finishMs: number } | null {
  let best: { doctorId: number; finishMs: number; queueLength: number } | null = null;
  for (const d of doctors) {
    if (!d.online || d.id === ownDoctorId) continue;
    const queue = queues.get(d.id) ?? [];
    const finishMs = nowMs + (countAhead(queue, key) + 1) * d.minutesPerReport * MINUTE_MS;
    const order =
      best === null
        ? -1
        : finishMs - best.finishMs || queue.length - best.queueLength || d.id - best.doctorId;
    if (order < 0) best = { doctorId: d.id, finishMs, queueLength: queue.length };
  }
  return best;
}

/**
 * The forecast of every open study under the group's sign-off limit (`limitMinutes`, minutes). A
 * study in a doctor's queue finishes after the studies before it, one report each at the doctor's
 * pace. A study in nobody's queue (unassigned, or its doctor is not among `doctors`: no longer an
 * active doctor) is forecast as if given now to the doctor suggested for it, the best it can do; with
 * no online doctor it has no forecast and is at risk (nobody will read it). Answers the studies in the
 * order given; a study whose dates do not parse is left out.
 */
export function forecastTurnaround(input: {
  studies: readonly TForecastStudy[];
  doctors: readonly TForecastDoctor[];
  limitMinutes: number;
  now: Date;
}): TTurnaroundForecast[] {
  const { studies, doctors, limitMinutes, now } = input;
  const byId = new Map(doctors.map((d) => [d.id, d]));
  const queues = doctorQueues(studies, new Set(byId.keys()));
  const forecasts: TTurnaroundForecast[] = [];
  for (const study of studies) {
    const deadline = signOffDeadline(study, limitMinutes);
    if (deadline === null) continue;
    const doctor = study.doctorId === null ? undefined : byId.get(study.doctorId);
    const key = readingKey(study);
    const nowMs = now.getTime();
    let finishMs: number | null = null;
    let queuePosition: number | null = null;
    let best: ReturnType<typeof bestDoctor> = null;
    if (doctor) {
      queuePosition = countAhead(queues.get(doctor.id) ?? [], key) + 1;
      finishMs = nowMs + queuePosition * doctor.minutesPerReport * MINUTE_MS;
    } else {
      best = bestDoctor(key, study.doctorId, doctors, queues, nowMs);
      finishMs = best?.finishMs ?? null;
    }
    const state: TTurnaroundState = isPastSignOffDeadline(deadline, now)
      ? 'BREACHED'
      : finishMs === null || finishMs > deadline.getTime()
        ? 'AT_RISK'
        : 'ON_TRACK';
    // An on-track study is best left where it is: only the listed ones get a suggestion, and only a
    // doctor who would sign it off sooner than its own.
    if (state === 'ON_TRACK') best = null;
    else if (doctor) {
      best = bestDoctor(key, study.doctorId, doctors, queues, nowMs);
      if (best !== null && finishMs !== null && best.finishMs >= finishMs) best = null;
    }
    const forecastFinish = finishMs === null ? null : new Date(finishMs);
    const suggestion = best && { doctorId: best.doctorId, forecastFinish: new Date(best.finishMs) };
    forecasts.push({
      id: study.id,
      deadline,
      timeLeftMs: deadline.getTime() - now.getTime(),
      forecastFinish,
      queuePosition,
      state,
      suggestion,
    });
  }
  return forecasts;
}

/** Who sees the at-risk list: those who may assign a study (core ASSIGN_ROLES: assignors, admins). */
export function canSeeTurnaroundAtRisk(roles: readonly TRole[]): boolean {
  return hasRole(roles, ...ASSIGN_ROLES);
}
