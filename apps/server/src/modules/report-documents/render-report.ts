import { AppError, reportDocumentBaseName } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { renderImage } from '../dicomweb-retrieve/render.js';
import { HttpError } from '../dicomweb-retrieve/transfer-syntax-negotiation.js';
import type { TReportDocumentLeftOut } from '@radflow/core';
import { leftOutOf } from './document-extras.js';
import { documentParts } from './document-parts.js';
import { renderPdf } from './pdf-document.js';
import {
  type TKnownGroupSettings,
  type TReportDocumentData,
  loadReportDocumentData,
} from './report-document-data.js';
import { renderWord } from './word-document.js';

export type TReportDocumentFormat = 'PDF' | 'WORD';

export interface TRenderReportInput {
  reportStatusId: number;
  format: TReportDocumentFormat;
  /** spec-core §9 "with header": the center's header/footer images (report_layouts). */
  withHeader: boolean;
  /** spec-core §9 "with images": the study's key images (viewer_key_images) after the report. */
  withImages: boolean;
  /** appendQrCodeToReport: a QR of the share page URL at the end (shareUrl must be given). */
  appendQr: boolean;
  shareUrl?: string | null;
  /** Replaces the saved report body for this document only (already cleaned by the caller). */
  customHtml?: string | null;
  /** The document's title (spec-core §7 reportName); default the report's name. */
  reportName?: string | null;
}

export const CONTENT_TYPES: Record<TReportDocumentFormat, string> = {
  PDF: 'application/pdf',
  WORD: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const EXTENSIONS: Record<TReportDocumentFormat, string> = { PDF: 'pdf', WORD: 'docx' };

/**
 * The study's key images as JPEG data URLs, rendered by the WADO rendered service. A frame that
 * cannot be rendered (no decoder, gone) is left out rather than failing the report.
 */
async function keyImageDataUrls(ctx: AppContext, data: TReportDocumentData): Promise<string[]> {
  const scope = { groupId: data.groupId, grants: [{ kind: 'group' as const }] };
  const urls: string[] = [];
  for (const key of data.keyImages) {
    try {
      const image = await renderImage(
        ctx,
        scope,
        { studyUid: data.studyInstanceUid, seriesUid: key.seriesInstanceUid, sopUid: key.sopInstanceUid },
        key.frameNumber,
        [{ type: 'image/jpeg', params: {}, q: 1 }],
        { quality: 85 },
      );
      urls.push(`data:image/jpeg;base64,${image.body.toString('base64')}`);
    } catch (error) {
      if (!(error instanceof HttpError) && !(error instanceof AppError)) throw error;
    }
  }
  return urls;
}

export interface TRenderedDocument {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  /** What was asked for and is not in it (issue 21 §7: no letterhead set, no key images). */
  leftOut: TReportDocumentLeftOut[];
}

/** Renders a report document. No access checks here: callers check (report-documents.service.ts). */
export function renderReportDocument(ctx: AppContext, input: TRenderReportInput): Promise<TRenderedDocument> {
  return renderWithKnown(ctx, input, {});
}

/** renderReportDocument when the caller has read the group settings already (one query fewer). */
export async function renderWithKnown(
  ctx: AppContext,
  input: TRenderReportInput,
  known: TKnownGroupSettings,
): Promise<TRenderedDocument> {
  const data = await loadReportDocumentData(ctx.db, input.reportStatusId, known);
  const keyImages = input.withImages ? await keyImageDataUrls(ctx, data) : [];
  const parts = await documentParts(ctx, data, {
    withHeader: input.withHeader,
    keyImages,
    shareUrl: input.appendQr ? (input.shareUrl ?? null) : null,
    customHtml: input.customHtml ?? null,
    reportName: input.reportName ?? null,
  });
  const bytes = input.format === 'PDF' ? await renderPdf(parts) : await renderWord(parts);
  const base = reportDocumentBaseName(data.patient.name, data.study.name);
  return {
    bytes,
    fileName: `${base}.${EXTENSIONS[input.format]}`,
    contentType: CONTENT_TYPES[input.format],
    leftOut: leftOutOf(input, { layout: data.layout, keyImages: keyImages.length }),
  };
}
