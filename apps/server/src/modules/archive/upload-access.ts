import { and, asc, eq } from 'drizzle-orm';
import { AppError, type TCenterOption, canCreateStudy } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { centers, reportStatuses } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';

/**
 * Who may bring studies in, and into which center (spec-core §5 Create Study, core canCreateStudy):
 * a center user into their own center only; group staff who upload into a center of their group,
 * which they must name.
 */

export interface TUploadTarget {
  centerId: number;
  groupId: number;
}

/**
 * The center an upload or a created study goes to. A center user's own center always; when they
 * name another one, `foreignCenter: 'forbid'` answers 403 (uploads) and 'ignore' keeps their own
 * (Create Study: the center is fixed to their own).
 */
export async function resolveUploadCenter(
  ctx: AppContext,
  auth: TAuth,
  requested: number | null | undefined,
  opts: { foreignCenter: 'forbid' | 'ignore'; field?: string },
): Promise<TUploadTarget> {
  if (!canCreateStudy(auth.roles)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const own = auth.user.centerId;
  if (own !== null) {
    if (requested != null && requested !== own && opts.foreignCenter === 'forbid') {
      throw new AppError('FORBIDDEN', 'You may only upload into your own center');
    }
    const [center] = await ctx.db
      .select({ id: centers.id, groupId: centers.groupId })
      .from(centers)
      .where(eq(centers.id, own));
    if (!center) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
    return { centerId: center.id, groupId: center.groupId };
  }
  if (requested == null) throw new AppError('BAD_REQUEST', 'Center is required', opts.field ?? 'centerId');
  const [center] = await ctx.db
    .select({ id: centers.id, groupId: centers.groupId })
    .from(centers)
    .where(and(eq(centers.id, requested), eq(centers.groupId, auth.user.groupId)));
  // A center of another group answers like one that does not exist.
  if (!center)
    throw new AppError('FORBIDDEN', 'The center is not one of your group', opts.field ?? 'centerId');
  return { centerId: center.id, groupId: center.groupId };
}

/**
 * The upload-study action: the report row the files join, which the caller must be able to upload
 * into (their group; a center user their own center). Its center is the upload's center.
 */
export async function resolveAttachTarget(
  ctx: AppContext,
  auth: TAuth,
  reportStatusId: number,
): Promise<TUploadTarget> {
  if (!canCreateStudy(auth.roles)) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
  const [row] = await ctx.db
    .select({ centerId: reportStatuses.centerId, groupId: reportStatuses.groupId })
    .from(reportStatuses)
    .where(eq(reportStatuses.id, reportStatusId));
  const visible =
    row &&
    row.groupId === auth.user.groupId &&
    (auth.user.centerId === null || auth.user.centerId === row.centerId);
  if (!visible) throw new AppError('NOT_FOUND', `Report ${reportStatusId} not found`, 'reportStatusId');
  return row;
}

/** GET /api/centers: a center user's own center; group users the centers of their group. */
export async function listCenterOptions(ctx: AppContext, auth: TAuth): Promise<TCenterOption[]> {
  const where =
    auth.user.centerId !== null ? eq(centers.id, auth.user.centerId) : eq(centers.groupId, auth.user.groupId);
  return ctx.db
    .select({ id: centers.id, name: centers.name, email: centers.email })
    .from(centers)
    .where(where)
    .orderBy(asc(centers.name), asc(centers.id));
}
