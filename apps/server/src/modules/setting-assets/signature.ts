import { eq } from 'drizzle-orm';
import { AppError, SETTING_ASSET_MESSAGES, type TSignatureResponse, ZSignatureData } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { settingAssets, userSignatures } from '../../db/schema.js';
import type { TAuth } from '../../plugins/auth.js';
import { prepareAsset, readAssetBytes, saveWithAssets } from './setting-assets.js';
import type { TSettingForm } from './setting-form.js';

/** GET /metadata/sign: the caller's footer text ('' when none) and image as a data URL (or null). */
export async function loadSignature(ctx: AppContext, auth: TAuth): Promise<TSignatureResponse> {
  const [row] = await ctx.db
    .select({
      name: userSignatures.name,
      contentType: settingAssets.contentType,
      blobKey: settingAssets.blobKey,
    })
    .from(userSignatures)
    .leftJoin(settingAssets, eq(settingAssets.id, userSignatures.imageAssetId))
    .where(eq(userSignatures.userId, auth.user.id));
  if (!row) return { name: '', signature: null };
  if (!row.blobKey || !row.contentType) return { name: row.name, signature: null };
  const bytes = await readAssetBytes(ctx, row.blobKey);
  return { name: row.name, signature: `data:${row.contentType};base64,${bytes.toString('base64')}` };
}

/** The `data` part: JSON `{ "name": "…" }`. A missing part is a missing name. */
function parseSignatureData(data: string | undefined) {
  let value: unknown = {};
  if (data !== undefined) {
    try {
      value = JSON.parse(data);
    } catch {
      throw new AppError('BAD_REQUEST', SETTING_ASSET_MESSAGES.signatureDataInvalid, 'data');
    }
  }
  const parsed = ZSignatureData.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'BAD_REQUEST',
      issue?.message ?? SETTING_ASSET_MESSAGES.signatureNameRequired,
      `data.${issue?.path.join('.') || 'name'}`,
    );
  }
  return parsed.data;
}

/**
 * POST /metadata/upload/: the footer text (required) and optionally a new image (png or jpeg).
 * Without a file the stored image is kept. The previous image's row stays: reports printed before
 * may still show it.
 */
export async function saveSignature(
  ctx: AppContext,
  auth: TAuth,
  form: TSettingForm,
): Promise<TSignatureResponse> {
  const { name } = parseSignatureData(form.fields.data);
  const image = form.files.file ? prepareAsset(auth, 'SIGNATURE', form.files.file, 'file') : null;
  await saveWithAssets(ctx, auth, image ? [image] : [], async (tx) => {
    const values = { name, updatedAt: ctx.now(), ...(image ? { imageAssetId: image.id } : {}) };
    await tx
      .insert(userSignatures)
      .values({ userId: auth.user.id, ...values })
      .onConflictDoUpdate({ target: userSignatures.userId, set: values });
  });
  return loadSignature(ctx, auth);
}
