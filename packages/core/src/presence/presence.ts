import { z } from 'zod';
import { type TRole, hasRole } from '../identity/roles.js';

/**
 * Presence (spec-core §9 'Chat beat…', §7 POST /chat-thread/beat; spec-lab §6 online dots; issue 23
 * §3): each open tab beats, first 3 s after it opens and then every 10 minutes, saying ONLINE, or
 * OFFLINE once its user has been idle 5 minutes; the server counts an ONLINE user whose beats have
 * stopped for 20 minutes (a closed laptop, a lost link) as OFFLINE. Pure: the clock is an argument.
 */
export const PRESENCE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export type TPresenceStatus = (typeof PRESENCE_STATUSES)[number];

export const FIRST_BEAT_DELAY_MS = 3_000;
export const BEAT_INTERVAL_MS = 10 * 60_000;
/** Idle this long (no key, pointer or touch in the tab), a user is reported OFFLINE. */
export const IDLE_OFFLINE_MS = 5 * 60_000;
/** An ONLINE user whose last beat is older than this is OFFLINE. */
export const MISSING_OFFLINE_MS = 20 * 60_000;

/** How long a tab waits before its next beat: the first soon after it opens, then the interval. */
export function nextBeatDelayMs(beatsSent: number): number {
  return beatsSent === 0 ? FIRST_BEAT_DELAY_MS : BEAT_INTERVAL_MS;
}

/** The status a tab reports: OFFLINE once its user has been idle IDLE_OFFLINE_MS. */
export function reportedStatus(lastActivityAt: Date, now: Date): TPresenceStatus {
  return now.getTime() - lastActivityAt.getTime() >= IDLE_OFFLINE_MS ? 'OFFLINE' : 'ONLINE';
}

/** The status the others see: a stored ONLINE with no beat for MISSING_OFFLINE_MS is OFFLINE. */
export function shownStatus(
  stored: { status: TPresenceStatus; updatedAt: Date },
  now: Date,
): TPresenceStatus {
  if (stored.status === 'OFFLINE') return 'OFFLINE';
  return now.getTime() - stored.updatedAt.getTime() >= MISSING_OFFLINE_MS ? 'OFFLINE' : 'ONLINE';
}

/** Who sees the online dots (spec-lab §6: the doctor and the center). */
export function seesOnlineStatuses(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_DOCTOR', 'ROLE_CENTER');
}

/** Whose dot is shown: the group's doctors (spec-core §2 'doctor online-status list'). */
export function appearsInOnlineList(roles: readonly TRole[]): boolean {
  return hasRole(roles, 'ROLE_DOCTOR');
}

/**
 * Whether a beat changes what the others see (issue 23 §3): the status shown before it (none stored:
 * OFFLINE; an ONLINE gone stale: OFFLINE) differs from the one it reports. Only such a beat is
 * published to the open lists (the live stream's `presence` event); the others change nothing.
 */
export function isPresenceChange(
  before: { status: TPresenceStatus; updatedAt: Date } | null | undefined,
  reported: TPresenceStatus,
  now: Date,
): boolean {
  return (before ? shownStatus(before, now) : 'OFFLINE') !== reported;
}

/** The spec's fetchFrom: 'yyyy-MM-dd HH:mm:ss' (read as UTC: the spec names no zone), or ISO 8601. */
const FETCH_FROM = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;

/** POST /chat-thread/beat: the tab's status, and since when it wants its messages. */
export const ZBeatRequest = z.object({
  status: z.enum(PRESENCE_STATUSES),
  fetchFrom: z
    .string()
    .regex(FETCH_FROM, "fetchFrom must be 'yyyy-MM-dd HH:mm:ss'")
    .transform((text, ctx) => {
      const date = new Date(/[Zz]|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: "fetchFrom must be 'yyyy-MM-dd HH:mm:ss'" });
        return z.NEVER;
      }
      return date;
    })
    .optional(),
});

export const ZOnlineStatus = z.object({
  email: z.string(),
  status: z.enum(PRESENCE_STATUSES),
  /** The last beat; null for one whose tab has never beaten (shown OFFLINE). */
  updatedAt: z.string().nullable(),
});
export type TOnlineStatus = z.infer<typeof ZOnlineStatus>;

/** The online list's order (spec-core §1 Presence: ONLINE users sort first), then by e-mail. */
export function sortOnlineFirst<T extends { status: TPresenceStatus; email: string }>(
  list: readonly T[],
): T[] {
  return [...list].sort(
    (a, b) => Number(b.status === 'ONLINE') - Number(a.status === 'ONLINE') || a.email.localeCompare(b.email),
  );
}
