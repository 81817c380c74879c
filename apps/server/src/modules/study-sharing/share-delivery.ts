import { desc, eq } from 'drizzle-orm';
import type QRCodeModule from 'qrcode';
import {
  AppError,
  SHARE_MESSAGES,
  type TReportMessage,
  type TViewerQrResponse,
  buildShareUrl,
  canGenerateViewerQr,
  groupFlags,
} from '@radflow/core';
import { messageOutbox } from '../../db/schema.js';
import { MESSAGE_NOT_ALLOWED, type TAuth } from '../../plugins/auth.js';
import { loadGroupPreferences } from '../preferences/preferences.js';
import { loadVisibleReport } from '../studies/visible-row.js';
import { ensureShareLink } from '../share-links/share-link.js';
import { type TSharingDeps, loadShareableReport } from './share-study.js';
import { onFirstUse } from '../../on-first-use.js';

const qrCode = onFirstUse<typeof QRCodeModule>('qrcode');

/** Enough for any row's history of shares; the newest first. */
const MESSAGES_SHOWN = 200;

/**
 * GET /report-status/messages/{id}: what the providers did with the row's messages (channel,
 * recipient, status, when, why it failed, attached file names), for whoever may share the row.
 * The bodies stay out: an SMS may carry a share-page code.
 */
export async function listReportMessages(
  deps: TSharingDeps,
  auth: TAuth,
  reportStatusId: number,
): Promise<TReportMessage[]> {
  const { report } = await loadShareableReport(deps.ctx, auth, reportStatusId);
  const rows = await deps.ctx.db
    .select()
    .from(messageOutbox)
    .where(eq(messageOutbox.reportStatusId, report.id))
    .orderBy(desc(messageOutbox.id))
    .limit(MESSAGES_SHOWN);
  return rows.map((m) => ({
    id: m.id,
    channel: m.channel,
    recipient: m.recipient,
    status: m.status,
    sentAt: m.createdAt.toISOString(),
    failureReason: m.failureReason,
    attachments: m.attachments,
  }));
}

/**
 * POST /pdf/generate-viewer-qr (spec-core §7): the row's share link (made now if it has none) and
 * its QR as a PNG data URL. Core `canGenerateViewerQr`: the group's enableSecureViewerQrCodeGeneration
 * and whoever may share the study; else 403.
 */
export async function generateViewerQr(
  deps: TSharingDeps,
  auth: TAuth,
  reportStatusId: number,
): Promise<TViewerQrResponse> {
  const { ctx } = deps;
  const report = await loadVisibleReport(ctx.db, auth, reportStatusId);
  const flags = groupFlags(await loadGroupPreferences(ctx.db, report.groupId));
  const input = { roles: auth.roles, flags, row: report, userCenterId: auth.user.centerId };
  if (!canGenerateViewerQr(input)) {
    throw new AppError(
      'FORBIDDEN',
      flags.enableSecureViewerQrCodeGeneration ? MESSAGE_NOT_ALLOWED : SHARE_MESSAGES.secureQrDisabled,
    );
  }
  const url = buildShareUrl(deps.publicUrl, await ensureShareLink(ctx.db, report.id, ctx.now()));
  const qrDataUrl = await qrCode().toDataURL(url, { errorCorrectionLevel: 'M', margin: 1, width: 512 });
  return { url, qrDataUrl };
}
