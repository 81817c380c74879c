import { describe, expect, it } from 'vitest';
import { MAX_STACKED_POPUPS, type TPopupItem, stackPopups } from './popups.js';

const at = (minute: number) => `2026-11-27T05:${String(minute).padStart(2, '0')}:00.000Z`;
const item = (id: number, reportStatusId: number, minute: number, seen = false): TPopupItem => ({
  id,
  reportStatusId,
  at: at(minute),
  seen,
});
const shape = (groups: ReturnType<typeof stackPopups>) =>
  groups.map((g) => [g.reportStatusId, g.items.map((i) => i.id)]);

describe('the pop-up stack (spec-core §4 Notifications, §9)', () => {
  it('groups by study, newest group on top, each keeping its two latest', () => {
    const groups = stackPopups([], [item(1, 10, 1), item(2, 10, 2), item(3, 10, 3), item(4, 20, 4)]);
    expect(shape(groups)).toEqual([
      [20, [4]],
      [10, [3, 2]],
    ]);
  });

  it('stacks at most three pop-ups, dropping the oldest groups', () => {
    const incoming = [1, 2, 3, 4, 5].map((n) => item(n, n * 10, n));
    const groups = stackPopups([], incoming);
    expect(groups).toHaveLength(MAX_STACKED_POPUPS);
    expect(groups.map((g) => g.reportStatusId)).toEqual([50, 40, 30]);
  });

  it('merges with what is shown, de-duplicated by id, the newer copy winning', () => {
    const shown = [item(1, 10, 1), item(2, 20, 2)];
    const groups = stackPopups(shown, [item(2, 20, 2), item(3, 10, 3)]);
    expect(shape(groups)).toEqual([
      [10, [3, 1]],
      [20, [2]],
    ]);
    // Seen elsewhere (the newer copy says so): it leaves the stack.
    expect(shape(stackPopups(shown, [item(1, 10, 1, true)]))).toEqual([[20, [2]]]);
  });

  it('shows only the unseen, and orders equal times by id', () => {
    expect(stackPopups([], [item(1, 10, 1, true)])).toEqual([]);
    expect(shape(stackPopups([], [item(5, 10, 1), item(6, 10, 1), item(4, 10, 1)]))).toEqual([[10, [6, 5]]]);
  });
});
