import { metaData } from '@cornerstonejs/core';
import { partsOf, syntaxOfContentType } from '../first-image/native-frame';
import { mayNeedOwnDecode, prepareFrame, type TPixelModule, type TPreparedFrame } from './own-decode';

/**
 * Puts own-decode.ts in front of Cornerstone's wadors loader. For an image whose layout it may get
 * wrong, the frame is fetched here (the same WADO-RS request the loader makes), prepared, and handed
 * to the loader through its compressed-frame registry (metadata 'compressedFrameData', which it
 * reads before the network), with the pixel module the prepared bytes follow: Cornerstone then
 * windows, caches and draws it as any native frame. Other images go straight to the loader.
 */

type TLoadImage = (
  imageId: string,
  options?: Record<string, unknown>,
) => { promise: Promise<unknown>; cancelFn?: () => void };

/** The loader's Accept header for frames (dicom-image-loader wadors/loadImage.js). */
const FRAME_MEDIA_TYPE = 'multipart/related; type=application/octet-stream; transfer-syntax=*';

/** Frames prepared and not yet taken by the loader. */
const pending = new Map<string, TPreparedFrame>();
/**
 * Per image decoded here: the file's pixel module (asked again when the image is loaded again) and
 * the one the decoded pixels follow (Cornerstone reads it while it has the image). Small; kept.
 */
const decodedModules = new Map<string, { original: TPixelModule; decoded: TPixelModule }>();

/** Above the loader's own providers, beside the first image's frame provider. */
export const OWN_DECODE_PROVIDER_PRIORITY = 9_000;

export function ownDecodeProvider(type: string, query: unknown): unknown {
  if (typeof query !== 'string') return undefined;
  if (type === 'compressedFrameData') {
    const frame = pending.get(query);
    if (!frame) return undefined;
    pending.delete(query);
    return { pixelData: frame.pixelData, transferSyntaxUid: frame.transferSyntaxUid };
  }
  if (type === 'imagePixelModule') return decodedModules.get(query)?.decoded;
  return undefined;
}

async function fetchFrame(imageId: string): Promise<{ transferSyntaxUid: string; bytes: Uint8Array }> {
  const url = imageId.replace(/^wadors:/, '');
  const response = await fetch(url, { headers: { accept: FRAME_MEDIA_TYPE }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Frame request answered ${response.status}`);
  const contentType = response.headers.get('content-type') ?? '';
  const body = new Uint8Array(await response.arrayBuffer());
  const part = partsOf(contentType, body)?.[0];
  if (!part) throw new Error('The frame answer is not a multipart/related body');
  return { transferSyntaxUid: syntaxOfContentType(part.contentType), bytes: part.bytes };
}

/** The wadors loader with own decoding in front (registered for the 'wadors' scheme). */
export function withOwnDecode(loadImage: TLoadImage): TLoadImage {
  return (imageId, options) => {
    const known = decodedModules.get(imageId)?.original;
    const pixel = known ?? (metaData.get('imagePixelModule', imageId) as TPixelModule | undefined);
    if (!pixel || !mayNeedOwnDecode(pixel)) return loadImage(imageId, options);
    const promise = (async () => {
      const prepared = await prepareFrame(await fetchFrame(imageId), pixel);
      if (prepared.pixelModule)
        decodedModules.set(imageId, { original: pixel, decoded: prepared.pixelModule });
      else decodedModules.delete(imageId);
      pending.set(imageId, prepared);
      try {
        return await loadImage(imageId, options).promise;
      } finally {
        pending.delete(imageId);
      }
    })();
    return { promise };
  };
}
