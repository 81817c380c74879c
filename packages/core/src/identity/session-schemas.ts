import { z } from 'zod';
import { ZPageResponse } from '../common/schemas.js';
import { ZAuditRow, ZLoginLogRow, ZStudyType } from './schemas.js';

export { DEVICE_ID_HEADER, DEVICE_NAME_HEADER } from './device-headers.js';
/** The session cookie (httpOnly; the browser sends it with `credentials: 'same-origin'`). */
export const SESSION_COOKIE_NAME = 'radflow_session';

/**
 * The device headers as the server reads them (lower-cased by HTTP). Optional on most calls; the
 * sign-in requires the device id when the group audits logins. Other headers pass through.
 */
export const ZDeviceHeaders = z.looseObject({
  'x-device-id': z.string().trim().max(200, 'X-Device-Id is too long').optional(),
  'x-device-name': z.string().trim().max(200, 'X-Device-Name is too long').optional(),
});
export type TDeviceHeaders = z.infer<typeof ZDeviceHeaders>;

/** GET /api/health. */
export const ZHealth = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** GET /api/settings/api-version (spec-core §7): the running server's version. */
export const ZApiVersion = z.object({ version: z.string() }).meta({ id: 'ApiVersion' });
export type TApiVersion = z.infer<typeof ZApiVersion>;

/** GET /api/user/study-type. */
export const ZStudyTypeList = z.array(ZStudyType).meta({ id: 'StudyTypeList' });

/** POST /api/user/audit/search answer. */
export const ZAuditPage = ZPageResponse(ZAuditRow).meta({ id: 'AuditPage' });
/** POST /api/user/audit/search-logs answer. */
export const ZLoginLogPage = ZPageResponse(ZLoginLogRow).meta({ id: 'LoginLogPage' });

/**
 * Filters the Audit Logins tables understand (keys of the search request's `filters`): `email`
 * (contains), `status` (PENDING/APPROVED/REJECTED), `deviceId` (contains); the log table also `eventType`.
 * Ordering of the devices table: id, email, status, deviceId, deviceName, createdAt, lastSeenAt,
 * firstApprovedAt (anything else orders by id).
 */
export const AUDIT_ORDERING_CRITERIA = [
  'id',
  'email',
  'status',
  'deviceId',
  'deviceName',
  'createdAt',
  'lastSeenAt',
  'firstApprovedAt',
] as const;
