/**
 * Which step the tour shows next (issue 29 §7): steps whose element is missing from the screen are
 * passed over, forwards or backwards; null when no step is left that way.
 */
export function presentStep(
  stepCount: number,
  from: number,
  direction: 1 | -1,
  isPresent: (index: number) => boolean,
): number | null {
  if (from < 0) return null;
  for (let i = Math.min(from, stepCount - 1); i >= 0 && i < stepCount; i += direction) {
    if (isPresent(i)) return i;
  }
  return null;
}

/** The position shown to the user ("Step 2 of 5"), counting only the steps present on the screen. */
export function visiblePosition(
  stepCount: number,
  index: number,
  isPresent: (index: number) => boolean,
): { step: number; of: number } {
  let step = 0;
  let of = 0;
  for (let i = 0; i < stepCount; i += 1) {
    if (!isPresent(i)) continue;
    of += 1;
    if (i <= index) step = of;
  }
  return { step, of };
}

/**
 * Where the card goes: below the element when it fits, else above, else over its top; kept inside
 * the window with a margin.
 */
export function cardPosition(
  target: { top: number; bottom: number; left: number },
  card: { width: number; height: number },
  viewport: { width: number; height: number },
  gap = 12,
): { top: number; left: number } {
  const margin = 8;
  let top = target.bottom + gap;
  if (top + card.height > viewport.height - margin) top = target.top - gap - card.height;
  if (top < margin)
    top = Math.max(margin, Math.min(target.top + gap, viewport.height - card.height - margin));
  const left = Math.max(margin, Math.min(target.left, viewport.width - card.width - margin));
  return { top, left };
}
