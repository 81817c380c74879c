import { type TRole, type TUserPreferences, needsDeviceApproval } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { type TDeviceRow, devices } from '../../db/schema.js';

/*
 * The device gate of a sign-in, read by both sides: auth checks it when a user signs in, devices
 * when it answers the caller's device status; the admin screens (devices) revoke through auth. Its
 * own module so that neither imports the other.
 */

/**
 * Device approval (spec-core §3 Audit row, §6 "Center users skip login audit calls", issue 2 §3):
 * when the group's ADMIN_PREFERENCES.enableLoginAuditLogs is on, a user who needs approval (core
 * needsDeviceApproval) may sign in only from a device the group's admin approved.
 */
export function requiresDeviceApproval(groupPrefs: TUserPreferences, roles: readonly TRole[]): boolean {
  return groupPrefs.ADMIN_PREFERENCES.enableLoginAuditLogs && needsDeviceApproval(roles);
}

/** Records a sign-in from a device (new devices start PENDING) and answers its approval status. */
export async function recordDeviceSignIn(
  db: DbOrTx,
  opts: { userId: number; deviceId: string; deviceName: string; now: Date },
): Promise<TDeviceRow['status']> {
  const [row] = await db
    .insert(devices)
    .values({
      userId: opts.userId,
      deviceId: opts.deviceId,
      deviceName: opts.deviceName,
      createdAt: opts.now,
      lastSeenAt: opts.now,
    })
    .onConflictDoUpdate({
      target: [devices.userId, devices.deviceId],
      set: { deviceName: opts.deviceName, lastSeenAt: opts.now },
    })
    .returning({ status: devices.status });
  if (!row) throw new Error('device upsert returned no row');
  return row.status;
}
