import { fitTransform, type TPreviewPixels } from './native-frame';

/** The decoded slice as a canvas of its own size, made once per decode. */
const sources = new WeakMap<TPreviewPixels, HTMLCanvasElement>();

function sourceOf(pixels: TPreviewPixels): HTMLCanvasElement {
  let source = sources.get(pixels);
  if (!source) {
    source = document.createElement('canvas');
    source.width = pixels.columns;
    source.height = pixels.rows;
    source.getContext('2d')?.putImageData(new ImageData(pixels.rgba, pixels.columns, pixels.rows), 0, 0);
    sources.set(pixels, source);
  }
  return source;
}

/**
 * Draws the first image as Cornerstone's CPU stack viewport will draw it in an element of
 * width × height CSS pixels: a canvas of that size (Cornerstone's CPU canvas is not scaled by
 * devicePixelRatio), black, the image fitted and centred with smoothing. Used by the page's early
 * preview and by the loading page's, so both draw the same pixels. False when there is no room.
 */
export function paintPreview(
  target: HTMLCanvasElement,
  pixels: TPreviewPixels,
  width: number,
  height: number,
): boolean {
  if (width < 1 || height < 1) return false;
  target.width = width;
  target.height = height;
  const g = target.getContext('2d');
  if (!g) return false;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = 'black';
  g.fillRect(0, 0, width, height);
  g.imageSmoothingEnabled = true;
  g.setTransform(...fitTransform(pixels, width, height).matrix);
  g.drawImage(sourceOf(pixels), 0, 0, pixels.columns, pixels.rows, 0, 0, pixels.columns, pixels.rows);
  return true;
}
