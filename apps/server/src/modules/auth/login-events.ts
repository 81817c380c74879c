import type { LOGIN_EVENT_TYPES } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { loginEvents } from '../../db/schema.js';

export type TLoginEventType = (typeof LOGIN_EVENT_TYPES)[number];

export interface TLoginEvent {
  eventType: TLoginEventType;
  email: string | null;
  userId?: number | null;
  deviceId?: string | null;
  deviceName?: string | null;
  clientAddress?: string | null;
  actorEmail?: string | null;
  detail?: string | null;
  createdAt?: Date;
}

/** Writes one line of the sign-in audit log. */
export async function recordLoginEvent(db: DbOrTx, event: TLoginEvent): Promise<void> {
  await db.insert(loginEvents).values({
    eventType: event.eventType,
    email: event.email,
    userId: event.userId ?? null,
    deviceId: event.deviceId ?? null,
    deviceName: event.deviceName ?? null,
    clientAddress: event.clientAddress ?? null,
    actorEmail: event.actorEmail ?? null,
    detail: event.detail ?? null,
    ...(event.createdAt ? { createdAt: event.createdAt } : {}),
  });
}
