import { and, asc, eq } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  type TKeyImage,
  type TKeyImageInput,
  type TViewerAnnotation,
  type TViewerAnnotationInput,
  type TViewerAnnotations,
  canChangeAnnotation,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { users, viewerAnnotations, viewerKeyImages } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadAnnotatableStudy, loadViewerStudy } from './viewer-study.js';

/*
 * Measurements, arrows and key images of a study (issue 5 §2), kept per report row. Writes carry no
 * study_events row: the timeline shows workflow, not drawings (DECISIONS.md).
 */

const iso = (date: Date) => date.toISOString();

/** GET /api/viewer/:id/annotations: everyone who may see the row sees them (like a presentation state). */
export async function listAnnotations(ctx: AppContext, auth: TAuth, id: number): Promise<TViewerAnnotations> {
  const study = await loadViewerStudy(ctx.db, auth, id);
  const [annotations, keyImages] = await Promise.all([
    ctx.db
      .select({
        annotationUid: viewerAnnotations.annotationUid,
        toolName: viewerAnnotations.toolName,
        seriesInstanceUid: viewerAnnotations.seriesInstanceUid,
        sopInstanceUid: viewerAnnotations.sopInstanceUid,
        frameNumber: viewerAnnotations.frameNumber,
        data: viewerAnnotations.data,
        createdBy: users.email,
        createdAt: viewerAnnotations.createdAt,
      })
      .from(viewerAnnotations)
      .leftJoin(users, eq(users.id, viewerAnnotations.createdByUserId))
      .where(eq(viewerAnnotations.reportStatusId, study.id))
      .orderBy(asc(viewerAnnotations.id)),
    ctx.db
      .select({
        seriesInstanceUid: viewerKeyImages.seriesInstanceUid,
        sopInstanceUid: viewerKeyImages.sopInstanceUid,
        frameNumber: viewerKeyImages.frameNumber,
        createdBy: users.email,
        createdAt: viewerKeyImages.createdAt,
      })
      .from(viewerKeyImages)
      .leftJoin(users, eq(users.id, viewerKeyImages.createdByUserId))
      .where(eq(viewerKeyImages.reportStatusId, study.id))
      .orderBy(asc(viewerKeyImages.id)),
  ]);
  return {
    annotations: annotations.map((a): TViewerAnnotation => ({
      ...a,
      toolName: a.toolName as TViewerAnnotation['toolName'],
      data: a.data as Record<string, unknown>,
      createdBy: a.createdBy ?? undefined,
      createdAt: iso(a.createdAt),
    })),
    keyImages: keyImages.map((k): TKeyImage => ({
      ...k,
      createdBy: k.createdBy ?? undefined,
      createdAt: iso(k.createdAt),
    })),
  };
}

/**
 * PUT /api/viewer/:id/annotations/:annotationUid: creates the annotation, or replaces it when the
 * caller may change it (their own; anyone's for a group admin — else 403). The existing row is locked
 * while it is checked, so two saves of one annotation serialise.
 */
export async function saveAnnotation(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  annotationUid: string,
  input: TViewerAnnotationInput,
): Promise<TViewerAnnotation> {
  if (input.annotationUid !== annotationUid) {
    throw new AppError('BAD_REQUEST', 'annotationUid differs from the one in the path', 'annotationUid');
  }
  const study = await loadAnnotatableStudy(ctx.db, auth, id);
  const now = ctx.now();
  const values = {
    toolName: input.toolName,
    seriesInstanceUid: input.seriesInstanceUid,
    sopInstanceUid: input.sopInstanceUid,
    frameNumber: input.frameNumber,
    data: input.data,
  };
  const saved = await ctx.db.transaction(async (tx) => {
    const existing = await lockAnnotation(tx, study.id, annotationUid);
    if (existing) {
      assertMayChange(auth, existing);
      const [row] = await tx
        .update(viewerAnnotations)
        .set({ ...values, updatedAt: now })
        .where(eq(viewerAnnotations.id, existing.id))
        .returning();
      return row;
    }
    // A concurrent first save of the same uid: the loser updates nothing and is told to retry.
    const [row] = await tx
      .insert(viewerAnnotations)
      .values({
        reportStatusId: study.id,
        annotationUid,
        ...values,
        createdByUserId: auth.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('CONFLICT', 'The annotation was saved at the same time; please try again');
    return row;
  });
  if (!saved) throw new Error('annotation row vanished while saving');
  const createdBy =
    saved.createdByUserId === auth.user.id ? auth.user.email : await emailOf(ctx, saved.createdByUserId);
  return {
    annotationUid: saved.annotationUid,
    toolName: input.toolName,
    seriesInstanceUid: saved.seriesInstanceUid,
    sopInstanceUid: saved.sopInstanceUid,
    frameNumber: saved.frameNumber,
    data: input.data,
    createdBy,
    createdAt: iso(saved.createdAt),
  };
}

/** The saved annotation `annotationUid` of report row `reportStatusId`, locked until the transaction ends. */
async function lockAnnotation(tx: Tx, reportStatusId: number, annotationUid: string) {
  const [row] = await tx
    .select({ id: viewerAnnotations.id, createdByUserId: viewerAnnotations.createdByUserId })
    .from(viewerAnnotations)
    .where(
      and(
        eq(viewerAnnotations.reportStatusId, reportStatusId),
        eq(viewerAnnotations.annotationUid, annotationUid),
      ),
    )
    .for('update');
  return row;
}

/** 403 unless the caller may change this saved annotation (core canChangeAnnotation). */
function assertMayChange(auth: TAuth, annotation: { createdByUserId: number | null }): void {
  const allowed = canChangeAnnotation({
    roles: auth.roles,
    userId: auth.user.id,
    createdByUserId: annotation.createdByUserId,
  });
  if (!allowed) throw new AppError('FORBIDDEN', MESSAGE_NOT_ALLOWED);
}

async function emailOf(ctx: AppContext, userId: number | null): Promise<string | undefined> {
  if (userId === null) return undefined;
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}

/** DELETE /api/viewer/:id/annotations/:annotationUid: the caller's own, or anyone's for a group admin. */
export async function deleteAnnotation(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  annotationUid: string,
): Promise<void> {
  const study = await loadAnnotatableStudy(ctx.db, auth, id);
  await ctx.db.transaction(async (tx) => {
    const existing = await lockAnnotation(tx, study.id, annotationUid);
    if (!existing) throw new AppError('NOT_FOUND', MESSAGES.notFound, 'annotationUid');
    assertMayChange(auth, existing);
    await tx.delete(viewerAnnotations).where(eq(viewerAnnotations.id, existing.id));
  });
}

/** POST /api/viewer/:id/key-images: marks a frame (marking it again changes nothing). */
export async function markKeyImage(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  input: TKeyImageInput,
): Promise<TKeyImage> {
  const study = await loadAnnotatableStudy(ctx.db, auth, id);
  await ctx.db
    .insert(viewerKeyImages)
    .values({ reportStatusId: study.id, ...input, createdByUserId: auth.user.id, createdAt: ctx.now() })
    .onConflictDoNothing();
  const [row] = await ctx.db
    .select({
      seriesInstanceUid: viewerKeyImages.seriesInstanceUid,
      sopInstanceUid: viewerKeyImages.sopInstanceUid,
      frameNumber: viewerKeyImages.frameNumber,
      createdBy: users.email,
      createdAt: viewerKeyImages.createdAt,
    })
    .from(viewerKeyImages)
    .leftJoin(users, eq(users.id, viewerKeyImages.createdByUserId))
    .where(
      and(
        eq(viewerKeyImages.reportStatusId, study.id),
        eq(viewerKeyImages.sopInstanceUid, input.sopInstanceUid),
        eq(viewerKeyImages.frameNumber, input.frameNumber),
      ),
    );
  if (!row) throw new Error('key image vanished while marking');
  return { ...row, createdBy: row.createdBy ?? undefined, createdAt: iso(row.createdAt) };
}

/**
 * DELETE /api/viewer/:id/key-images?sopInstanceUid=…&frameNumber=…: unmarks (idempotent). Any user
 * who may annotate the study may unmark: a key image is a shared choice for the report, not a drawing.
 */
export async function unmarkKeyImage(
  ctx: AppContext,
  auth: TAuth,
  id: number,
  target: { sopInstanceUid: string; frameNumber: number },
): Promise<{ removed: boolean }> {
  const study = await loadAnnotatableStudy(ctx.db, auth, id);
  const removed = await ctx.db
    .delete(viewerKeyImages)
    .where(
      and(
        eq(viewerKeyImages.reportStatusId, study.id),
        eq(viewerKeyImages.sopInstanceUid, target.sopInstanceUid),
        eq(viewerKeyImages.frameNumber, target.frameNumber),
      ),
    )
    .returning({ id: viewerKeyImages.id });
  return { removed: removed.length > 0 };
}
