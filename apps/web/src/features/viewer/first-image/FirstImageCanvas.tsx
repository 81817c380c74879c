import Box from '@mui/material/Box';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { TViewportReadout } from '../engine/viewport-state';
import { firstImageState, markFirstImagePainted, subscribeFirstImage, type TFirstImage } from './first-image';
import { fitTransform } from './native-frame';
import { paintPreview } from './paint-preview';

/** The first image while it is held (first-image.ts), else null. */
export function useFirstImage(): TFirstImage | null {
  const state = useSyncExternalStore(subscribeFirstImage, firstImageState);
  return state.status === 'ready' ? state.image : null;
}

/**
 * What the viewport's overlay says about the first image before Cornerstone does: slice 1 of N and
 * the window as Cornerstone reports the one it starts with (its VOI range from that window: width
 * − 1, centre − 0.5), the zoom it fits the image at in an element of this size.
 */
export function firstImageReadout(
  image: TFirstImage,
  element: { clientWidth: number; clientHeight: number } | null,
): TViewportReadout {
  const { pixels } = image;
  return {
    imageId: image.imageId,
    index: 0,
    total: image.total,
    windowWidth: pixels.windowWidth - 1,
    windowLevel: pixels.windowCenter - 0.5,
    zoom: element ? fitTransform(pixels, element.clientWidth, element.clientHeight).scale : 1,
    rotation: 0,
    flipHorizontal: false,
    flipVertical: false,
    invert: false,
    failed: false,
  };
}

/**
 * The first image in a viewport's place, drawn as Cornerstone's CPU stack viewport will draw it
 * (paint-preview.ts). It takes the pointer, so nothing reaches a viewport that has no image yet.
 */
export function FirstImageCanvas({ image }: { image: TFirstImage }) {
  const box = useRef<HTMLDivElement | null>(null);
  const canvas = useRef<HTMLCanvasElement | null>(null);

  useEffect(() => {
    const target = canvas.current;
    const frame = box.current;
    if (!target || !frame) return undefined;
    const draw = () => {
      if (paintPreview(target, image.pixels, frame.clientWidth, frame.clientHeight)) markFirstImagePainted();
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(frame);
    return () => observer.disconnect();
  }, [image]);

  return (
    <Box
      ref={box}
      data-testid="first-image-preview"
      onContextMenu={(e) => e.preventDefault()}
      sx={{ position: 'absolute', inset: 0, bgcolor: '#000' }}
    >
      <canvas
        ref={canvas}
        style={{ position: 'absolute', width: '100%', height: '100%', imageRendering: 'pixelated' }}
      />
    </Box>
  );
}
