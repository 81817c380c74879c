import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  AppError,
  MESSAGES,
  PNG_ONLY_ASSET_TYPES,
  SETTINGS_MESSAGES,
  SETTING_ASSET_ID_PATTERN,
  SETTING_ASSET_MESSAGES,
  type TSettingAssetType,
  type TSettingAssetUploadResponse,
  ZSettingAssetType,
  canUploadSettingAsset,
  settingAssetUrl,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { settingAssets } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { type TSettingForm, checkSettingImage } from './setting-form.js';

/** An image checked and named, not stored yet. */
export interface TPendingAsset {
  id: string;
  assetType: TSettingAssetType;
  contentType: string;
  bytes: Buffer;
  blobKey: string;
}

/**
 * Checks an uploaded image (size and magic number; png only for header and footer) and gives it a
 * random id. The id is the public address, so it carries 128 random bits.
 */
export function prepareAsset(
  auth: TAuth,
  assetType: TSettingAssetType,
  bytes: Buffer,
  field: string,
): TPendingAsset {
  const contentType = checkSettingImage(bytes, field, { pngOnly: PNG_ONLY_ASSET_TYPES.includes(assetType) });
  const id = randomBytes(16).toString('hex');
  return { id, assetType, contentType, bytes, blobKey: `settings/${auth.user.groupId}/${id}` };
}

/**
 * Stores the images' bytes, then in one transaction their rows and whatever `write` saves with them.
 * Bytes first: a row never names a missing blob. If the transaction fails the blobs are removed, so
 * a refused or failed save leaves nothing behind.
 */
export async function saveWithAssets<T>(
  ctx: AppContext,
  auth: TAuth,
  assets: readonly TPendingAsset[],
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  const written: string[] = [];
  try {
    for (const asset of assets) {
      await ctx.blobs.put(asset.blobKey, asset.bytes);
      written.push(asset.blobKey);
    }
    return await ctx.db.transaction(async (tx) => {
      if (assets.length > 0) {
        await tx.insert(settingAssets).values(
          assets.map((asset) => ({
            id: asset.id,
            groupId: auth.user.groupId,
            uploadedByUserId: auth.user.id,
            assetType: asset.assetType,
            contentType: asset.contentType,
            byteSize: asset.bytes.length,
            blobKey: asset.blobKey,
            createdAt: ctx.now(),
          })),
        );
      }
      return write(tx);
    });
  } catch (error) {
    await Promise.all(written.map((key) => ctx.blobs.delete(key).catch(() => undefined)));
    throw error;
  }
}

/**
 * POST /setting/upload-assets/: multipart `file` + `assetType`. The type is checked first (400),
 * then whether the caller's settings entries include the dialog that uses it (403), then the bytes
 * (413, 415).
 */
export async function uploadSettingAsset(
  ctx: AppContext,
  auth: TAuth,
  form: TSettingForm,
): Promise<TSettingAssetUploadResponse> {
  const parsedType = ZSettingAssetType.safeParse(form.fields.assetType);
  if (!parsedType.success)
    throw new AppError('BAD_REQUEST', SETTING_ASSET_MESSAGES.assetTypeInvalid, 'assetType');
  const assetType = parsedType.data;
  if (!canUploadSettingAsset(auth.roles, assetType)) {
    throw new AppError('FORBIDDEN', SETTINGS_MESSAGES.notAllowed, assetType);
  }
  const bytes = form.files.file;
  if (!bytes) throw new AppError('BAD_REQUEST', SETTING_ASSET_MESSAGES.imageRequired, 'file');
  const asset = prepareAsset(auth, assetType, bytes, 'file');
  await saveWithAssets(ctx, auth, [asset], async () => undefined);
  return { publicS3ImageUrl: settingAssetUrl(asset.id), assetType };
}

/** The stored image of GET /assets/{id}; 404 for an id of another shape or none stored. */
export async function loadSettingAsset(
  ctx: AppContext,
  id: string,
): Promise<{ contentType: string; bytes: Buffer }> {
  const notFound = new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
  if (!SETTING_ASSET_ID_PATTERN.test(id)) throw notFound;
  const [row] = await ctx.db.select().from(settingAssets).where(eq(settingAssets.id, id));
  if (!row) throw notFound;
  return { contentType: row.contentType, bytes: await readAssetBytes(ctx, row.blobKey) };
}

/** A stored image's bytes; 404 if the blob is gone (never a 500 for a missing file). */
export async function readAssetBytes(ctx: AppContext, blobKey: string): Promise<Buffer> {
  try {
    return await ctx.blobs.read(blobKey);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new AppError('NOT_FOUND', MESSAGES.notFound, 'id');
    }
    throw error;
  }
}
