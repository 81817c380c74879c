import { z } from 'zod';
import { PRODUCT_NAME } from '../common/constants.js';
import { settingAssetUrl } from './asset-urls.js';

/**
 * A group's own product name and logo (issue 29 §8; spec-core §7 "Title and logo assets are fetched
 * from a brand assets path"). The spec gives no words for the form; the texts are ours.
 */
export const BRAND_MESSAGES = {
  productNameTooLong: 'The product name can be at most 60 characters.',
  productNameInvalid: 'The product name cannot contain line breaks or angle brackets.',
  removeLogoInvalid: 'removeLogo must be true or false.',
  saved: 'Brand saved',
} as const;

export const BRAND_PRODUCT_NAME_MAX_LENGTH = 60;

/** The brand of the sign-in page, top bar, share page and documents. */
export const ZBrand = z.object({
  /** The group's product name, or the product's own (PRODUCT_NAME). */
  productName: z.string(),
  /** The group's logo (a public settings image address), or null for the product's own mark. */
  logoUrl: z.string().nullable(),
  /** Whether the group set a brand of its own (a name or a logo). */
  isCustom: z.boolean(),
});
export type TBrand = z.infer<typeof ZBrand>;

export const DEFAULT_BRAND: TBrand = { productName: PRODUCT_NAME, logoUrl: null, isCustom: false };

/**
 * A product name as typed: trimmed; empty means "the product's own" (null). Line breaks and angle
 * brackets are refused: the name goes into page titles, PDF metadata and SMS-like lines.
 */
export const ZBrandProductName = z
  .string()
  .trim()
  .max(BRAND_PRODUCT_NAME_MAX_LENGTH, BRAND_MESSAGES.productNameTooLong)
  .refine((name) => !/[\r\n<>]/.test(name), BRAND_MESSAGES.productNameInvalid)
  .transform((name) => (name === '' ? null : name));

/** The brand shown for a group's stored values (null columns: the product's own). */
export function brandOf(
  stored: { brandProductName: string | null; brandLogoAssetId: string | null } | null,
): TBrand {
  if (!stored) return DEFAULT_BRAND;
  const productName = stored.brandProductName?.trim() || null;
  const logoUrl = stored.brandLogoAssetId ? settingAssetUrl(stored.brandLogoAssetId) : null;
  return {
    productName: productName ?? PRODUCT_NAME,
    logoUrl,
    isCustom: productName !== null || logoUrl !== null,
  };
}

/**
 * The host an appDomain names (bare host with an optional port, or a full origin), lower case; null
 * when empty or unreadable. The sign-in page's group is the one whose appDomain is the page's host.
 */
export function appDomainHost(appDomain: string | null | undefined): string | null {
  const value = appDomain?.trim();
  if (!value) return null;
  try {
    return new URL(/^https?:\/\//i.test(value) ? value : `http://${value}`).host.toLowerCase();
  } catch {
    return null;
  }
}
