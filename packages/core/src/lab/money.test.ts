import { describe, expect, it } from 'vitest';
import { isRupeeAmount, toPaise, toRupees } from './money.js';

describe('rupees and paise', () => {
  it.each([
    [0, true],
    [1, true],
    [0.1, true],
    [19.99, true],
    [1234.5, true],
    [0.005, false],
    [-1, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [100_000_001, false],
  ])('%s is an amount: %s', (rupees, ok) => expect(isRupeeAmount(rupees)).toBe(ok));

  it('round-trips amounts whose binary float is inexact', () => {
    for (const rupees of [0.1, 0.29, 19.99, 1.15, 1234.56]) expect(toRupees(toPaise(rupees))).toBe(rupees);
    expect(toPaise(0.29)).toBe(29);
    expect(toPaise(1.15)).toBe(115);
  });
});
