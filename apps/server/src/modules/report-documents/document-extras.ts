import { sql } from 'drizzle-orm';
import type { TReportDocumentExtras, TReportDocumentLeftOut } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { reportLayouts, reportStatuses, viewerKeyImages } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { loadVisibleReportRow } from '../studies/visible-row.js';
import type { TDocumentLayout } from './report-document-data.js';

/*
 * issue 21 §7: 'PDF with header' and 'with images' gave the plain PDF without a word when the row
 * had no letterhead or key images. What a row's documents can hold is read here for the menu (before
 * the click), and what a document asked for but could not hold is named with it (after).
 */

/**
 * GET /pdf/extras/{id}: whether a letterhead is set (the layout the documents use: the center's,
 * else the group's — report-document-data.ts) and how many key images the row has. Whoever sees the
 * row (404 otherwise), like the documents themselves.
 */
export async function documentExtras(
  ctx: AppContext,
  auth: TAuth,
  id: number,
): Promise<TReportDocumentExtras> {
  const rs = reportStatuses;
  const row = await loadVisibleReportRow(ctx.db, auth, id, {
    letterhead: sql<boolean>`coalesce((
      select l.header_asset_id is not null or l.footer_asset_id is not null
      from ${reportLayouts} l
      where (l.scope = 'CENTER' and l.owner_id = ${rs.centerId}) or (l.scope = 'GROUP' and l.owner_id = ${rs.groupId})
      order by l.scope = 'CENTER' desc limit 1), false)`,
    keyImages: sql<number>`(select count(*)::int from ${viewerKeyImages} k where k.report_status_id = ${rs.id})`,
  });
  return { letterhead: row.letterhead, keyImages: row.keyImages };
}

/** What a rendered document was asked to hold and does not (the response's x-report-left-out). */
export function leftOutOf(
  asked: { withHeader: boolean; withImages: boolean },
  held: { layout: TDocumentLayout; keyImages: number },
): TReportDocumentLeftOut[] {
  const leftOut: TReportDocumentLeftOut[] = [];
  if (asked.withHeader && held.layout.headerAssetId === null && held.layout.footerAssetId === null) {
    leftOut.push('LETTERHEAD');
  }
  // Marked frames that none could be drawn (no decoder, gone) leave the document without images too.
  if (asked.withImages && held.keyImages === 0) leftOut.push('KEY_IMAGES');
  return leftOut;
}
