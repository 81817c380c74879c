import { z } from 'zod';

/**
 * The query of a rendered frame (PS3.18 §8.3.5.1): one home for the cloud's rendered endpoints
 * (server dicomweb-retrieve) and the router's offline ones (apps/router HYBRID.md).
 */

/** A window asked for in the request, in place of the image's own. */
export interface TRenderWindow {
  center: number;
  width: number;
  fn: 'LINEAR' | 'SIGMOID';
}

export interface TRenderViewport {
  width: number;
  height: number;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * PS3.18 §8.3.5.1.4 `window=center,width[,function]` (function `linear` or `sigmoid`, any case): the
 * window the light viewer's presets ask for (VIEWER.md "Light viewer"). Applies to greyscale images;
 * colour images are sent as they are.
 */
export const ZRenderWindow = z.string().transform((text, ctx): TRenderWindow => {
  const [center = '', width = '', fn = 'linear', ...rest] = text.split(',').map((p) => p.trim());
  const fnName = fn.toLowerCase();
  if (
    rest.length > 0 ||
    !NUMBER.test(center) ||
    !NUMBER.test(width) ||
    Number(width) < 1 ||
    (fnName !== 'linear' && fnName !== 'sigmoid')
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `window must be center,width[,linear|sigmoid] with a width of at least 1, not '${text}'`,
    });
    return z.NEVER;
  }
  return { center: Number(center), width: Number(width), fn: fnName === 'sigmoid' ? 'SIGMOID' : 'LINEAR' };
});

const MAX_VIEWPORT = 4096;

/**
 * PS3.18 §8.3.5.1.3 `viewport=vw,vh`: the image is scaled to fit inside, keeping its aspect, never
 * enlarged (a phone asks for its screen's pixels, not the modality's).
 */
export const ZRenderViewport = z.string().transform((text, ctx): TRenderViewport => {
  const parts = text.split(',').map((p) => p.trim());
  const [width, height] = parts.map(Number);
  if (
    parts.length !== 2 ||
    !parts.every((p) => /^\d+$/.test(p)) ||
    !width ||
    !height ||
    width > MAX_VIEWPORT ||
    height > MAX_VIEWPORT
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `viewport must be width,height in pixels (1 to ${MAX_VIEWPORT}), not '${text}'`,
    });
    return z.NEVER;
  }
  return { width, height };
});
