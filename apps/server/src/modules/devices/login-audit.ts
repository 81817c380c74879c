import { type SQL, and, asc, count, desc, eq, gte, ilike, lte, sql } from 'drizzle-orm';
import {
  AppError,
  LOGIN_AUDIT_STATUSES,
  LOGIN_EVENT_TYPES,
  type TAuditRow,
  type TSearchTableRequest,
  toPageResponse,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { type TDeviceRow, devices, loginEvents, users } from '../../db/schema.js';
import { recordLoginEvent } from '../auth/login-events.js';
import { revokeApiTokensOfDevice } from '../credentials/api-token.js';
import { revokeDeviceSessions } from '../credentials/sessions.js';

function toAuditRow(row: TDeviceRow, email: string): TAuditRow {
  return {
    status: row.status,
    deviceId: row.deviceId,
    deviceName: row.deviceName,
    email,
    firstApprovedAt: row.firstApprovedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  };
}

/** `%` and `_` in what the user typed are literal characters, not wildcards. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filterText(req: TSearchTableRequest, key: string): string | null {
  const value = req.filters[key]?.trim();
  return value ? value : null;
}

function parseTime(value: string | null | undefined, field: string): Date | null {
  if (!value) return null;
  const date = new Date(value.includes('T') || !value.includes(' ') ? value : value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) throw new AppError('BAD_REQUEST', `${field} is not a valid date`, field);
  return date;
}

const DEVICE_ORDERING: Record<string, SQL | typeof devices.id> = {
  id: sql`${devices.id}`,
  email: sql`${users.email}`,
  status: sql`${devices.status}`,
  deviceId: sql`${devices.deviceId}`,
  deviceName: sql`${devices.deviceName}`,
  createdAt: sql`${devices.createdAt}`,
  lastSeenAt: sql`${devices.lastSeenAt}`,
  firstApprovedAt: sql`${devices.firstApprovedAt}`,
};

/** POST /api/user/audit/search: the devices of the group's users, filtered and paged. */
export async function searchDevices(db: DbOrTx, groupId: number, req: TSearchTableRequest) {
  const conditions: SQL[] = [eq(users.groupId, groupId)];
  const email = filterText(req, 'email');
  if (email) conditions.push(ilike(users.email, containsPattern(email)));
  const deviceId = filterText(req, 'deviceId');
  if (deviceId) conditions.push(ilike(devices.deviceId, containsPattern(deviceId)));
  const status = filterText(req, 'status')?.toUpperCase();
  if (status) {
    const known = LOGIN_AUDIT_STATUSES.find((s) => s === status);
    if (!known) {
      throw new AppError(
        'BAD_REQUEST',
        `status must be one of ${LOGIN_AUDIT_STATUSES.join(', ')}`,
        'filters.status',
      );
    }
    conditions.push(eq(devices.status, known));
  }
  const where = and(...conditions);
  const orderColumn = DEVICE_ORDERING[req.orderingCriteria] ?? sql`${devices.id}`;
  const direction = req.sortOrder === 'ASC' ? asc : desc;

  const [rows, [total]] = await Promise.all([
    db
      .select({ device: devices, email: users.email })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(where)
      .orderBy(direction(orderColumn), direction(devices.id))
      .limit(req.size)
      .offset(req.page * req.size),
    db.select({ n: count() }).from(devices).innerJoin(users, eq(users.id, devices.userId)).where(where),
  ]);
  return toPageResponse(
    rows.map((r) => toAuditRow(r.device, r.email)),
    total?.n ?? 0,
    req.page,
    req.size,
  );
}

/** POST /api/user/audit/search-logs: the group's sign-in events, newest first. */
export async function searchLoginLogs(db: DbOrTx, groupId: number, req: TSearchTableRequest) {
  const conditions: SQL[] = [eq(users.groupId, groupId)];
  const email = filterText(req, 'email');
  if (email) conditions.push(ilike(loginEvents.email, containsPattern(email)));
  const deviceId = filterText(req, 'deviceId');
  if (deviceId) conditions.push(ilike(loginEvents.deviceId, containsPattern(deviceId)));
  const eventType = filterText(req, 'eventType')?.toUpperCase();
  if (eventType) {
    if (!LOGIN_EVENT_TYPES.some((t) => t === eventType)) {
      throw new AppError(
        'BAD_REQUEST',
        `eventType must be one of ${LOGIN_EVENT_TYPES.join(', ')}`,
        'filters.eventType',
      );
    }
    conditions.push(eq(loginEvents.eventType, eventType));
  }
  const start = parseTime(req.startTime, 'startTime');
  if (start) conditions.push(gte(loginEvents.createdAt, start));
  const end = parseTime(req.endTime, 'endTime');
  if (end) conditions.push(lte(loginEvents.createdAt, end));
  const where = and(...conditions);

  const [rows, [total]] = await Promise.all([
    db
      .select({ event: loginEvents })
      .from(loginEvents)
      .innerJoin(users, eq(users.id, loginEvents.userId))
      .where(where)
      .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
      .limit(req.size)
      .offset(req.page * req.size),
    db
      .select({ n: count() })
      .from(loginEvents)
      .innerJoin(users, eq(users.id, loginEvents.userId))
      .where(where),
  ]);
  const content = rows.map(({ event }) => ({
    id: event.id,
    eventType: LOGIN_EVENT_TYPES.find((t) => t === event.eventType) ?? 'LOGIN_FAILED',
    email: event.email,
    deviceId: event.deviceId,
    deviceName: event.deviceName,
    clientAddress: event.clientAddress,
    actorEmail: event.actorEmail,
    detail: event.detail,
    createdAt: event.createdAt.toISOString(),
  }));
  return toPageResponse(content, total?.n ?? 0, req.page, req.size);
}

/**
 * POST /api/user/audit/update-approval-status: approve or reject one device of a user of the
 * actor's group. The change and its audit line are one transaction; rejecting also ends the
 * sessions opened from that device. Setting the status it already has is ALREADY_PRESENT (4002).
 */
export async function updateApprovalStatus(
  ctx: AppContext,
  opts: {
    actor: { email: string; groupId: number };
    status: 'APPROVED' | 'REJECTED';
    deviceId: string;
    email: string;
    clientAddress: string;
  },
): Promise<TAuditRow> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ deviceRowId: devices.id, userId: users.id, deviceName: devices.deviceName })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(
        and(
          eq(users.email, opts.email),
          eq(users.groupId, opts.actor.groupId),
          eq(devices.deviceId, opts.deviceId),
        ),
      );
    if (!target) throw new AppError('NOT_FOUND', 'No such device for this user', opts.deviceId);

    const [updated] = await tx
      .update(devices)
      .set({
        status: opts.status,
        ...(opts.status === 'APPROVED'
          ? { firstApprovedAt: sql`coalesce(${devices.firstApprovedAt}, ${now.toISOString()}::timestamptz)` }
          : {}),
      })
      .where(and(eq(devices.id, target.deviceRowId), sql`${devices.status} <> ${opts.status}`))
      .returning();
    if (!updated)
      throw new AppError('ALREADY_PRESENT', `The device is already ${opts.status}`, opts.deviceId);

    await recordLoginEvent(tx, {
      eventType: opts.status === 'APPROVED' ? 'DEVICE_APPROVED' : 'DEVICE_REJECTED',
      email: opts.email,
      userId: target.userId,
      deviceId: opts.deviceId,
      deviceName: target.deviceName,
      clientAddress: opts.clientAddress,
      actorEmail: opts.actor.email,
      createdAt: now,
    });
    if (opts.status === 'REJECTED') {
      await revokeDeviceSessions(tx, target.userId, opts.deviceId);
      await revokeApiTokensOfDevice(tx, target.userId, opts.deviceId);
    }
    return toAuditRow(updated, opts.email);
  });
}

/**
 * GET /api/user/audit: the caller's current device (X-Device-Id). APPROVED when the group does not
 * audit logins or the caller is a center user; PENDING for a device not recorded yet.
 */
export async function currentDeviceStatus(
  db: DbOrTx,
  opts: {
    user: { id: number; email: string };
    needsApproval: boolean;
    deviceId: string | null;
    deviceName: string | null;
    now: Date;
  },
): Promise<TAuditRow> {
  const synthesized = (status: TAuditRow['status']): TAuditRow => ({
    status,
    deviceId: opts.deviceId ?? '',
    deviceName: opts.deviceName ?? '',
    email: opts.user.email,
    firstApprovedAt: null,
    createdAt: opts.now.toISOString(),
    lastSeenAt: opts.now.toISOString(),
  });
  if (!opts.needsApproval) return synthesized('APPROVED');
  if (!opts.deviceId) throw new AppError('BAD_REQUEST', 'The X-Device-Id header is required', 'x-device-id');
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.userId, opts.user.id), eq(devices.deviceId, opts.deviceId)));
  return row ? toAuditRow(row, opts.user.email) : synthesized('PENDING');
}
