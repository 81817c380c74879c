import { describe, expect, it } from 'vitest';
import { cardPosition, presentStep, visiblePosition } from './tour-state';

/* issue 29 §7: the tour passes over steps whose element is not on the screen. */

const present =
  (...indexes: number[]) =>
  (i: number) =>
    indexes.includes(i);

describe('presentStep', () => {
  it('goes forward to the next step on the screen, or null past the last', () => {
    expect(presentStep(6, 0, 1, present(0, 2, 5))).toBe(0);
    expect(presentStep(6, 1, 1, present(0, 2, 5))).toBe(2);
    expect(presentStep(6, 3, 1, present(0, 2, 5))).toBe(5);
    expect(presentStep(6, 3, 1, present(0, 2))).toBeNull();
  });

  it('goes back to the previous step on the screen, or null before the first', () => {
    expect(presentStep(6, 4, -1, present(0, 2, 5))).toBe(2);
    expect(presentStep(6, 1, -1, present(2))).toBeNull();
    expect(presentStep(6, -1, -1, present(0))).toBeNull();
  });

  it('a stored step past the end (fewer steps since) starts from the last', () => {
    expect(presentStep(3, 9, 1, present(0, 1, 2))).toBe(2);
  });
});

describe('visiblePosition counts only the steps on the screen', () => {
  it('step 2 of 3 when steps 1, 3 and 4 of 6 are missing', () => {
    expect(visiblePosition(6, 2, present(0, 2, 5))).toEqual({ step: 2, of: 3 });
    expect(visiblePosition(6, 5, present(0, 2, 5))).toEqual({ step: 3, of: 3 });
  });
});

describe('cardPosition', () => {
  const viewport = { width: 1000, height: 800 };
  const card = { width: 300, height: 150 };

  it('below the element when it fits', () => {
    expect(cardPosition({ top: 100, bottom: 140, left: 50 }, card, viewport)).toEqual({ top: 152, left: 50 });
  });

  it('above it near the bottom of the window', () => {
    expect(cardPosition({ top: 700, bottom: 740, left: 50 }, card, viewport)).toEqual({ top: 538, left: 50 });
  });

  it('inside the window on the right and for an element taller than the window', () => {
    expect(cardPosition({ top: 0, bottom: 900, left: 900 }, card, viewport)).toEqual({ top: 12, left: 692 });
  });
});
