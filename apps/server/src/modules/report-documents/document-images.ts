import { eq } from 'drizzle-orm';
import type * as Jsdom from 'jsdom';
import type { JSDOM } from 'jsdom';
import type sharpModule from 'sharp';
import { settingAssetIdOf } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { settingAssets } from '../../db/schema.js';
import { onFirstUse } from '../../on-first-use.js';

const sharp = onFirstUse<typeof sharpModule>('sharp');
/** Loaded on the first document, not at start: jsdom takes about a second to load. */
const jsdom = onFirstUse<typeof Jsdom>('jsdom');

/*
 * Images in report documents come from two places only (contract): `/api/assets/{id}` read from the
 * blob store (never fetched by URL), and data: URLs of png or jpeg. Any other src is dropped, so a
 * report can never make the server fetch a link or read a file.
 */

/**
 * One jsdom window for the whole process: parsing report HTML (html-to-pdfmake, image resolution)
 * needs a DOM, and building a window costs ~20 ms. jsdom loads no subresources and runs no scripts
 * unless asked to, so this window never reaches the network or the file system.
 */
let sharedWindow: JSDOM['window'] | null = null;
export function documentWindow(): JSDOM['window'] {
  if (!sharedWindow) {
    const { JSDOM: Dom } = jsdom();
    sharedWindow = new Dom('<!DOCTYPE html><html><body></body></html>').window;
  }
  return sharedWindow;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|jpg);base64,[A-Za-z0-9+/=\s]+$/i;

/** Asset data URLs by id: an asset never changes (a new image is a new id), so nothing goes stale. */
const ASSET_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const assetCache = new Map<string, string>();
let assetCacheBytes = 0;

function remember(id: string, dataUrl: string): void {
  assetCache.set(id, dataUrl);
  assetCacheBytes += dataUrl.length;
  // Oldest first out (a Map iterates in insertion order; a hit re-inserts below).
  for (const [key, value] of assetCache) {
    if (assetCacheBytes <= ASSET_CACHE_MAX_BYTES) break;
    assetCache.delete(key);
    assetCacheBytes -= value.length;
  }
}

/**
 * A png with an alpha channel laid on white paper, as a png without one. pdfkit embeds an opaque
 * png's compressed data as it is, but decodes every pixel of one with alpha to split the mask off,
 * for every document: a letterhead band cost more CPU than the rest of the report. Reports print
 * on white, so the picture is the same.
 */
export async function opaqueImage(bytes: Buffer, contentType: string): Promise<Buffer> {
  if (contentType !== 'image/png') return bytes;
  const image = sharp()(bytes);
  const { hasAlpha } = await image.metadata();
  return hasAlpha ? image.flatten({ background: '#ffffff' }).png().toBuffer() : bytes;
}

/** The stored setting image `id` as a data URL (png or jpeg), or null when unknown. */
export async function assetDataUrl(ctx: AppContext, id: string): Promise<string | null> {
  const hit = assetCache.get(id);
  if (hit !== undefined) {
    assetCache.delete(id);
    assetCache.set(id, hit);
    return hit;
  }
  const [asset] = await ctx.db
    .select({ contentType: settingAssets.contentType, blobKey: settingAssets.blobKey })
    .from(settingAssets)
    .where(eq(settingAssets.id, id));
  if (!asset || !/^image\/(png|jpeg)$/.test(asset.contentType)) return null;
  const bytes = await opaqueImage(await ctx.blobs.read(asset.blobKey), asset.contentType);
  const dataUrl = `data:${asset.contentType};base64,${bytes.toString('base64')}`;
  remember(id, dataUrl);
  return dataUrl;
}

/** Inline images already decoded, by data URL: whether they decode (the last few hundred kept). */
const decodable = new Map<string, boolean>();

/**
 * Whether an inline image decodes as the png or jpeg it says it is. The sanitizer checks only the
 * form of a data URL, and pdfkit refuses the whole document over one picture it cannot read (a
 * truncated paste), so such an image is dropped like a foreign link.
 */
async function decodes(dataUrl: string): Promise<boolean> {
  const known = decodable.get(dataUrl);
  if (known !== undefined) return known;
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  let ok: boolean;
  try {
    const image = sharp()(bytes, { failOn: 'truncated' });
    const { format } = await image.metadata();
    ok = (format === 'png' || format === 'jpeg') && (await image.raw().toBuffer()).length > 0;
  } catch {
    ok = false;
  }
  if (decodable.size >= 256) decodable.delete(decodable.keys().next().value as string);
  decodable.set(dataUrl, ok);
  return ok;
}

/** An img src as something a document may embed (a data URL), or null to drop the image. */
export async function resolveImageSrc(ctx: AppContext, src: string): Promise<string | null> {
  const trimmed = src.trim();
  if (DATA_IMAGE.test(trimmed)) {
    const dataUrl = trimmed.replace(/^data:image\/jpg;/i, 'data:image/jpeg;');
    return (await decodes(dataUrl)) ? dataUrl : null;
  }
  const id = settingAssetIdOf(trimmed);
  return id === null ? null : assetDataUrl(ctx, id);
}

/** The HTML with every img src resolved to a data URL, and images that cannot be embedded removed. */
export async function resolveHtmlImages(ctx: AppContext, html: string): Promise<string> {
  if (!/<img\b/i.test(html)) return html;
  const template = documentWindow().document.createElement('template');
  template.innerHTML = html;
  for (const img of Array.from(template.content.querySelectorAll('img'))) {
    const src = await resolveImageSrc(ctx, img.getAttribute('src') ?? '');
    img.removeAttribute('data-src');
    if (src === null) img.remove();
    else img.setAttribute('src', src);
  }
  return template.innerHTML;
}
