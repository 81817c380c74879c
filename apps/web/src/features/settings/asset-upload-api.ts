import {
  ZSettingAssetUploadResponse,
  type TSettingAssetType,
  type TSettingAssetUploadResponse,
} from '@radflow/core';
import { sendMultipart } from './settings-api';

/**
 * POST /api/setting/upload-assets/ (png or jpeg, at most 2 MiB): the image's public URL. Apart from
 * settings-api.ts, which the shell loads at first paint (the notification bell saves its section):
 * the upload's schema brings the upload rules' module (core settings/asset-rules.ts) with it, and
 * only the settings dialogs and the report editor upload.
 */
export async function uploadSettingAsset(
  file: File,
  assetType: TSettingAssetType,
): Promise<TSettingAssetUploadResponse> {
  const body = new FormData();
  body.append('file', file);
  body.append('assetType', assetType);
  return ZSettingAssetUploadResponse.parse(await sendMultipart<unknown>('/api/setting/upload-assets/', body));
}
