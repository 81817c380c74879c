import { createHash } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  SHARE_MESSAGES,
  type TSharePage,
  type TShareSeries,
  buildShareUrl,
  formatDicomText,
  formatPersonName,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { instances, series } from '../../db/schema.js';
import { renderImage } from '../dicomweb-retrieve/render.js';
import { renderReportDocument } from '../report-documents/render-report.js';
import { recordStudyEvent } from '../study-events/record-study-event.js';
import { hasSignedMainReport, signedReportsOf } from '../study-sharing/signed-reports.js';
import type { TShareAccess, TSharedRow } from './share-access.js';

const dicomDate = (value: string) =>
  /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : '';

/** Who opened it, without keeping the address: enough to write one timeline row per visitor and hour. */
function visitorKey(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.ip}\n${request.headers['user-agent'] ?? ''}`)
    .digest('base64url')
    .slice(0, 16);
}

/**
 * `SHARE_OPENED` on the study timeline, at most once an hour per visitor (address + browser, hashed)
 * so that reloads and image scrolling do not flood it. One statement: insert unless a recent one
 * exists.
 */
async function recordOpened(ctx: AppContext, row: TSharedRow, visitor: string): Promise<void> {
  const now = ctx.now();
  await recordStudyEvent(ctx.db, {
    reportStatusId: row.id,
    type: 'SHARE_OPENED',
    actor: { label: 'Share link' },
    fromStatus: row.status,
    toStatus: row.status,
    payload: { visitor },
    at: now,
    unlessSince: { since: new Date(now.getTime() - 3_600_000), sameDetail: 'visitor' },
  });
}

/** GET /api/share/{link}: the study facts and, once signed off, the report (main + addenda, signed). */
export async function getSharePage(
  ctx: AppContext,
  access: TShareAccess,
  request: FastifyRequest,
): Promise<TSharePage> {
  const { row } = access;
  const reports = await signedReportsOf(ctx.db, row);
  await recordOpened(ctx, row, visitorKey(request));
  return {
    patientName: formatPersonName(row.patientName),
    patientId: row.patientId,
    patientSex: row.patientSex,
    patientAge: row.patientAge,
    studyName: formatDicomText(row.studyName || row.studyDescription),
    modality: row.modalities.join(', '),
    studyDate: dicomDate(row.studyDate),
    center: row.centerName,
    referringPhysician: formatPersonName(row.referringPhysicianName),
    isReportReady: hasSignedMainReport(reports),
    reports: reports.map((r) => ({
      name: r.name,
      content: r.content,
      isAddendum: r.isAddendum,
      doctorName: r.doctorName,
      signature: r.signature && {
        name: r.signature.name,
        imageUrl: r.signature.imageAssetId ? `/api/assets/${r.signature.imageAssetId}` : null,
        signedOffAt: r.signature.signedOffAt,
      },
    })),
    hasImages: row.instanceCount > 0,
    expiresAt: access.expiresAt?.toISOString() ?? null,
    displayTimeZone: access.flags.displayTimeZone,
  };
}

/** GET /api/share/{link}/series: the study's images with pixels, every frame, in viewing order. */
export async function listShareSeries(ctx: AppContext, access: TShareAccess): Promise<TShareSeries[]> {
  const rows = await ctx.db
    .select({
      seriesId: series.id,
      seriesUid: series.seriesInstanceUid,
      seriesNumber: series.seriesNumber,
      modality: series.modality,
      description: series.seriesDescription,
      sopUid: instances.sopInstanceUid,
      frames: instances.numberOfFrames,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(
      and(
        eq(instances.studyId, access.row.studyId),
        isNotNull(instances.rows),
        gt(instances.numberOfFrames, 0),
      ),
    )
    .orderBy(
      sql`${series.seriesNumber} asc nulls last`,
      asc(series.id),
      sql`${instances.instanceNumber} asc nulls last`,
      asc(instances.id),
    );
  const bySeries = new Map<number, TShareSeries>();
  for (const r of rows) {
    let entry = bySeries.get(r.seriesId);
    if (!entry) {
      entry = {
        seriesUid: r.seriesUid,
        seriesNumber: r.seriesNumber,
        modality: r.modality,
        description: r.description,
        frames: [],
      };
      bySeries.set(r.seriesId, entry);
    }
    for (let frame = 1; frame <= r.frames; frame++) entry.frames.push({ sopUid: r.sopUid, frame });
  }
  return [...bySeries.values()];
}

/**
 * GET /api/share/{link}/series/{series}/instances/{instance}/frames/{frame}: one frame as JPEG
 * through the WADO rendered service. The study UID comes from the link's row, never from the
 * request, and the scope is the row's group: the link reaches that one study and nothing else.
 */
export function renderShareFrame(
  ctx: AppContext,
  access: TShareAccess,
  target: { seriesUid: string; sopUid: string; frame: number },
) {
  return renderImage(
    ctx,
    { groupId: access.row.groupId, grants: [{ kind: 'group' }] },
    { studyUid: access.row.studyUid, seriesUid: target.seriesUid, sopUid: target.sopUid },
    target.frame,
    [{ type: 'image/jpeg', params: {}, q: 1 }],
    { quality: 85 },
  );
}

/**
 * GET /api/share/{link}/report.pdf: the signed report as the group prints it (letterhead with
 * downloadReportWithLetterhead, the QR with appendQrCodeToReport); 409 before sign-off.
 */
export async function renderSharePdf(ctx: AppContext, access: TShareAccess, publicUrl: string) {
  if (!hasSignedMainReport(await signedReportsOf(ctx.db, access.row)))
    throw new AppError('CONFLICT', SHARE_MESSAGES.reportNotReady);
  return renderReportDocument(ctx, {
    reportStatusId: access.row.id,
    format: 'PDF',
    withHeader: access.flags.downloadReportWithLetterhead,
    withImages: false,
    appendQr: access.flags.appendQrCodeToReport,
    shareUrl: buildShareUrl(publicUrl, access.token),
  });
}
