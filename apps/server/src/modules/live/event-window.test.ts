import { describe, expect, it } from 'vitest';
import { EventWindow } from './event-window.js';

const window = (highest = 10) => new EventWindow({ highest, pendingTtlMs: 1_000, maxPending: 100 });

describe('EventWindow', () => {
  it('answers each id once, and ids at or below the start not at all', () => {
    const w = window();
    expect(w.accept([9, 10, 11, 12], 0)).toEqual([11, 12]);
    expect(w.accept([11, 12, 13], 0)).toEqual([13]);
    expect(w.highest).toBe(13);
    expect(w.pending()).toEqual([]);
    expect(w.floor()).toBe(13);
  });

  it('keeps an id that committed after a higher one: pending until it appears, then answered once', () => {
    const w = window();
    // 11 and 13 committed; 12 is still in an open transaction.
    expect(w.accept([11, 13], 0)).toEqual([11, 13]);
    expect(w.pending()).toEqual([12]);
    expect(w.floor()).toBe(11);
    expect(w.accept([14], 10)).toEqual([14]);
    expect(w.accept([12, 15], 20)).toEqual([12, 15]);
    expect(w.pending()).toEqual([]);
    expect(w.floor()).toBe(15);
    expect(w.accept([12], 30)).toEqual([]);
  });

  it('gives up on a hole after the TTL (a rolled-back insert) and moves the floor on', () => {
    const w = window();
    w.accept([13], 0);
    expect(w.pending()).toEqual([11, 12]);
    w.trim(1_000);
    expect(w.pending()).toEqual([11, 12]);
    w.trim(1_001);
    expect(w.pending()).toEqual([]);
    expect(w.floor()).toBe(13);
  });

  it('holds at most maxPending holes, the newest', () => {
    const w = new EventWindow({ highest: 0, pendingTtlMs: 1_000, maxPending: 3 });
    expect(w.accept([1_000_000], 0)).toEqual([1_000_000]);
    expect(w.pending()).toEqual([999_997, 999_998, 999_999]);
    w.accept([1_000_002], 0);
    expect(w.pending()).toEqual([999_998, 999_999, 1_000_001]);
  });

  it('takes the holes of the last rows at the start as pending', () => {
    const w = window(20);
    w.markMissing([17, 19, 25], 0);
    expect(w.pending()).toEqual([17, 19]);
    expect(w.floor()).toBe(16);
    expect(w.accept([19], 0)).toEqual([19]);
    expect(w.floor()).toBe(16);
  });
});
