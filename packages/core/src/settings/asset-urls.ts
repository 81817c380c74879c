/**
 * Where an uploaded settings image is served (GET /api/assets/{id}). Apart from the upload rules
 * (asset-rules.ts): the top bar's brand logo needs the address at first paint, the upload's schemas
 * and messages only the settings dialogs.
 */

/** An asset id: 32 random lowercase hex characters. */
export const SETTING_ASSET_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The public address of an uploaded image (GET /api/assets/{id} needs no session). */
export function settingAssetUrl(id: string): string {
  return `/api/assets/${id}`;
}

/** The id in an address made by `settingAssetUrl`, or null. */
export function settingAssetIdOf(url: string | null | undefined): string | null {
  const match = /^\/api\/assets\/([0-9a-f]{32})$/.exec(url ?? '');
  return match?.[1] ?? null;
}
