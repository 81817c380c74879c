import { and, eq } from 'drizzle-orm';
import {
  AppError,
  PDF_MARGIN_DEFAULTS_CM,
  type TCenterSettingResponse,
  ZPdfMarginsForm,
  hasRole,
  settingAssetUrl,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { type LAYOUT_SCOPES, reportLayouts } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { type TPendingAsset, prepareAsset, saveWithAssets } from './setting-assets.js';
import type { TSettingForm } from './setting-form.js';

export interface TLayoutOwner {
  scope: (typeof LAYOUT_SCOPES)[number];
  ownerId: number;
}

/**
 * Whose page layout the caller edits (contract): a center user's center, so every user of the
 * center prints alike; a group admin's group; anyone else keeps their own.
 */
export function layoutOwnerOf(auth: TAuth): TLayoutOwner {
  if (hasRole(auth.roles, 'ROLE_CENTER') && auth.user.centerId !== null) {
    return { scope: 'CENTER', ownerId: auth.user.centerId };
  }
  if (hasRole(auth.roles, 'ROLE_GROUP')) return { scope: 'GROUP', ownerId: auth.user.groupId };
  return { scope: 'USER', ownerId: auth.user.id };
}

const ownerIs = (owner: TLayoutOwner) =>
  and(eq(reportLayouts.scope, owner.scope), eq(reportLayouts.ownerId, owner.ownerId));

/** GET /center-setting/: the stored layout, or the spec's defaults (4, 3, 3, 3 cm, no images). */
export async function loadReportLayout(db: DbOrTx, owner: TLayoutOwner): Promise<TCenterSettingResponse> {
  const [row] = await db.select().from(reportLayouts).where(ownerIs(owner));
  if (!row) {
    return {
      pdfMarginTop: PDF_MARGIN_DEFAULTS_CM.top,
      pdfMarginBottom: PDF_MARGIN_DEFAULTS_CM.bottom,
      pdfMarginLeft: PDF_MARGIN_DEFAULTS_CM.left,
      pdfMarginRight: PDF_MARGIN_DEFAULTS_CM.right,
      headerImageUrl: null,
      footerImageUrl: null,
    };
  }
  // numeric(5,2) comes back as text.
  return {
    pdfMarginTop: Number(row.marginTopCm),
    pdfMarginBottom: Number(row.marginBottomCm),
    pdfMarginLeft: Number(row.marginLeftCm),
    pdfMarginRight: Number(row.marginRightCm),
    headerImageUrl: row.headerAssetId ? settingAssetUrl(row.headerAssetId) : null,
    footerImageUrl: row.footerAssetId ? settingAssetUrl(row.footerAssetId) : null,
  };
}

function parseMargins(fields: Record<string, string>) {
  const parsed = ZPdfMarginsForm.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('BAD_REQUEST', issue?.message ?? 'Invalid margins', issue?.path.join('.') ?? null);
  }
  return parsed.data;
}

/**
 * What happens to one image: a new file replaces it, remove…="true" clears it, else it stays. A
 * removed image keeps its asset row and bytes: a report printed before may still point at it.
 */
function imageChange(
  auth: TAuth,
  form: TSettingForm,
  field: 'header' | 'footer',
  removeField: string,
): TPendingAsset | 'REMOVE' | 'KEEP' {
  const bytes = form.files[field];
  if (bytes) return prepareAsset(auth, field === 'header' ? 'REPORT_HEADER' : 'REPORT_FOOTER', bytes, field);
  return form.fields[removeField] === 'true' ? 'REMOVE' : 'KEEP';
}

const toCm = (value: number) => value.toFixed(2);

/**
 * POST /center-setting/update/: margins (top and bottom required; left and right left out keep
 * theirs), optional png header/footer, removeHeader/removeFooter. Everything is checked before a
 * byte is stored; images and the layout are saved together (saveWithAssets).
 */
export async function updateReportLayout(
  ctx: AppContext,
  auth: TAuth,
  form: TSettingForm,
): Promise<TCenterSettingResponse> {
  const margins = parseMargins(form.fields);
  const header = imageChange(auth, form, 'header', 'removeHeader');
  const footer = imageChange(auth, form, 'footer', 'removeFooter');
  const pending = [header, footer].filter((c): c is TPendingAsset => typeof c === 'object');
  const owner = layoutOwnerOf(auth);
  const assetIdOf = (change: typeof header, stored: string | null) =>
    change === 'REMOVE' ? null : change === 'KEEP' ? stored : change.id;

  await saveWithAssets(ctx, auth, pending, async (tx) => {
    const [stored] = await tx.select().from(reportLayouts).where(ownerIs(owner)).for('update');
    const values = {
      marginTopCm: toCm(margins.pdf_margin_top),
      marginBottomCm: toCm(margins.pdf_margin_bottom),
      marginLeftCm:
        margins.pdf_margin_left !== undefined
          ? toCm(margins.pdf_margin_left)
          : (stored?.marginLeftCm ?? toCm(PDF_MARGIN_DEFAULTS_CM.left)),
      marginRightCm:
        margins.pdf_margin_right !== undefined
          ? toCm(margins.pdf_margin_right)
          : (stored?.marginRightCm ?? toCm(PDF_MARGIN_DEFAULTS_CM.right)),
      headerAssetId: assetIdOf(header, stored?.headerAssetId ?? null),
      footerAssetId: assetIdOf(footer, stored?.footerAssetId ?? null),
      updatedBy: auth.user.email,
      updatedAt: ctx.now(),
    };
    await tx
      .insert(reportLayouts)
      .values({ ...owner, ...values })
      .onConflictDoUpdate({ target: [reportLayouts.scope, reportLayouts.ownerId], set: values });
  });
  return loadReportLayout(ctx.db, owner);
}
