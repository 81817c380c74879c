import { and, eq, ilike, isNotNull, sql } from 'drizzle-orm';
import {
  AppError,
  BRAND_MESSAGES,
  SHARE_TOKEN_PATTERN,
  type TBrand,
  ZBrandProductName,
  appDomainHost,
  brandOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, preferences, reportStatuses, settingChanges } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { prepareAsset, saveWithAssets } from '../setting-assets/setting-assets.js';
import type { TSettingForm } from '../setting-assets/setting-form.js';

/** The setting_changes section of a brand change (the group audit). */
const BRAND_SECTION = 'BRAND';

/** The brand of one group (its own name and logo, or the product's). */
export async function loadGroupBrand(db: DbOrTx, groupId: number): Promise<TBrand> {
  const [row] = await db
    .select({ brandProductName: groups.brandProductName, brandLogoAssetId: groups.brandLogoAssetId })
    .from(groups)
    .where(eq(groups.id, groupId));
  return brandOf(row ?? null);
}

/**
 * The group whose ADMIN_PREFERENCES appDomain is this host (the sign-in page's group: before sign-in
 * the address is all the page knows). Several groups naming one host, or none: null (the product's
 * own brand, never another group's).
 */
export async function groupOfHost(db: DbOrTx, host: string): Promise<number | null> {
  const wanted = host.trim().toLowerCase();
  if (!wanted) return null;
  const candidates = await db
    .select({
      groupId: preferences.ownerId,
      appDomain: sql<string | null>`${preferences.value}->>'appDomain'`,
    })
    .from(preferences)
    .where(
      and(
        eq(preferences.scope, 'GROUP'),
        eq(preferences.section, 'ADMIN_PREFERENCES'),
        isNotNull(sql`${preferences.value}->>'appDomain'`),
        // The host without its port is in the stored text, whichever form (host or origin) it took.
        ilike(sql`${preferences.value}->>'appDomain'`, `%${escapeLike(wanted.replace(/:\d+$/, ''))}%`),
      ),
    );
  const matches = candidates.filter((c) => appDomainHost(c.appDomain) === wanted);
  return matches.length === 1 ? matches[0]!.groupId : null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The group of the study a share link opens; null for a token of another shape or unknown. */
export async function groupOfShareLink(db: DbOrTx, token: string): Promise<number | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ groupId: reportStatuses.groupId })
    .from(reportStatuses)
    .where(eq(reportStatuses.shareLink, token));
  return row?.groupId ?? null;
}

/**
 * GET /brand-assets (spec-core §7): whose brand a page shows. A signed-in caller: their group's. A
 * share page (shareLink): the shared study's group. Otherwise the group whose appDomain is the
 * page's host (the sign-in page). Else the product's own.
 */
export async function resolveBrand(
  ctx: AppContext,
  opts: { auth: TAuth | null; shareLink?: string | undefined; host: string },
): Promise<TBrand> {
  const groupId =
    opts.auth?.user.groupId ??
    (opts.shareLink ? await groupOfShareLink(ctx.db, opts.shareLink) : null) ??
    (await groupOfHost(ctx.db, opts.host));
  return groupId === null ? brandOf(null) : loadGroupBrand(ctx.db, groupId);
}

/**
 * POST /setting/brand (multipart): `productName` (empty: the product's own), an optional `logo`
 * (png or jpeg by its bytes, at most 2 MiB), `removeLogo` = "true" to go back to the product's mark.
 * A field left out keeps its stored value; a new logo wins over removeLogo. The image, the group's
 * columns and the audit rows are written together: a refused save stores nothing.
 */
export async function saveGroupBrand(ctx: AppContext, auth: TAuth, form: TSettingForm): Promise<TBrand> {
  let productName: string | null | undefined;
  if (form.fields.productName !== undefined) {
    const parsed = ZBrandProductName.safeParse(form.fields.productName);
    if (!parsed.success) {
      throw new AppError(
        'BAD_REQUEST',
        parsed.error.issues[0]?.message ?? BRAND_MESSAGES.productNameTooLong,
        'productName',
      );
    }
    productName = parsed.data;
  }
  const removeLogo = form.fields.removeLogo;
  if (removeLogo !== undefined && removeLogo !== 'true' && removeLogo !== 'false') {
    throw new AppError('BAD_REQUEST', BRAND_MESSAGES.removeLogoInvalid, 'removeLogo');
  }
  const logo = form.files.logo ? prepareAsset(auth, 'BRAND_LOGO', form.files.logo, 'logo') : null;
  const groupId = auth.user.groupId;

  return saveWithAssets(ctx, auth, logo ? [logo] : [], async (tx) => {
    const [before] = await tx
      .select({ brandProductName: groups.brandProductName, brandLogoAssetId: groups.brandLogoAssetId })
      .from(groups)
      .where(eq(groups.id, groupId))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', 'Group not found');
    const after = {
      brandProductName: productName === undefined ? before.brandProductName : productName,
      brandLogoAssetId: logo ? logo.id : removeLogo === 'true' ? null : before.brandLogoAssetId,
    };
    await tx.update(groups).set(after).where(eq(groups.id, groupId));
    const changed = (['brandProductName', 'brandLogoAssetId'] as const).filter((f) => before[f] !== after[f]);
    if (changed.length > 0) {
      await tx.insert(settingChanges).values(
        changed.map((field) => ({
          groupId,
          section: BRAND_SECTION,
          field,
          oldValue: before[field],
          newValue: after[field],
          changedByUserId: auth.user.id,
          changedBy: auth.user.email,
        })),
      );
    }
    return brandOf(after);
  });
}
