import { z } from 'zod';
import { NOTIFICATION_KINDS, STUDY_EVENT_TYPES } from '../study-events/study-events.js';

/** How far back the bell looks: older events are history (the timeline keeps them), not news. */
export const NOTIFICATION_WINDOW_DAYS = 30;
/** The bell's list, one page. */
export const NOTIFICATION_PAGE_DEFAULT = 20;
export const NOTIFICATION_PAGE_MAX = 100;
/** Ids one `seen` call may name. */
export const NOTIFICATION_SEEN_MAX_IDS = 500;

/** GET /api/notifications?before=&limit=: the newest first; `before` pages on (an id of the last page). */
export const ZNotificationsQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_PAGE_MAX).default(NOTIFICATION_PAGE_DEFAULT),
});
export type TNotificationsQuery = z.infer<typeof ZNotificationsQuery>;

/** One notification: a study event told to the caller, with the study as the lists show it. */
export const ZNotification = z
  .object({
    /** The study event's id. */
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS),
    eventType: z.enum(STUDY_EVENT_TYPES as [string, ...string[]]),
    /** The study row (report status id): what a click opens. */
    reportStatusId: z.number().int(),
    studyId: z.number().int(),
    /** What the viewer's address names (web viewerPath). */
    studyInstanceUid: z.string(),
    apiVersion: z.number().int(),
    patientName: z.string(),
    studyName: z.string(),
    /** Who acted: their name, or what acted when no user did (an AE title); null when unknown. */
    actor: z.string().nullable(),
    at: z.string(),
    seen: z.boolean(),
  })
  .meta({ id: 'Notification' });
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationsPage = z
  .object({
    /** The caller's unseen notifications within the window (all pages). */
    unseen: z.number().int().nonnegative(),
    notifications: z.array(ZNotification),
    /** Whether older notifications follow (ask with `before` = the last id). */
    more: z.boolean(),
    /** The kinds that pop up for the caller (their UI_PREFERENCES choice, or their role's default). */
    popupKinds: z.array(z.enum(NOTIFICATION_KINDS)),
    /** Whether the browser's own notification is wanted while the tab is hidden. */
    browserNotifications: z.boolean(),
  })
  .meta({ id: 'NotificationsPage' });
export type TNotificationsPage = z.infer<typeof ZNotificationsPage>;

/** POST /api/notifications/seen {ids}: ids that are not the caller's notifications are ignored. */
export const ZNotificationsSeenRequest = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(NOTIFICATION_SEEN_MAX_IDS),
});
export const ZNotificationsSeenResponse = z.object({
  /** How many became seen by this call. */
  seen: z.number().int().nonnegative(),
  unseen: z.number().int().nonnegative(),
});
