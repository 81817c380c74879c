/**
 * The pop-up stack (spec-core §4 Notifications, §9): messages are merged, de-duplicated by id, split
 * into seen and unseen, grouped by thread (here: the study row), each group keeps its two latest
 * messages, and at most 3 pop-ups stack. A pop-up is one group; the newest group is on top.
 */
export const MAX_STACKED_POPUPS = 3;
export const POPUP_GROUP_KEEPS = 2;

export interface TPopupItem {
  id: number;
  /** The thread a message belongs to: the study row (one pop-up per study). */
  reportStatusId: number;
  /** ISO time; ties and equal times fall back to the id (ids grow with time). */
  at: string;
  seen: boolean;
}

export interface TPopupGroup<T extends TPopupItem> {
  reportStatusId: number;
  /** Newest first, at most POPUP_GROUP_KEEPS. */
  items: T[];
}

const newestFirst = (a: TPopupItem, b: TPopupItem) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id);

/**
 * The pop-ups to show after `incoming` arrived while `current` were shown: the union by id (the
 * newer copy wins, so a message seen elsewhere drops out), only the unseen, grouped by study, each
 * group's two latest, the groups ordered by their newest message, at most three.
 */
export function stackPopups<T extends TPopupItem>(
  current: readonly T[],
  incoming: readonly T[],
): Array<TPopupGroup<T>> {
  const byId = new Map<number, T>();
  for (const item of [...current, ...incoming]) byId.set(item.id, item);
  const unseen = [...byId.values()].filter((item) => !item.seen).sort(newestFirst);
  const groups = new Map<number, T[]>();
  for (const item of unseen) {
    const group = groups.get(item.reportStatusId) ?? [];
    if (group.length < POPUP_GROUP_KEEPS) group.push(item);
    groups.set(item.reportStatusId, group);
  }
  // A Map keeps insertion order, and groups were made newest message first.
  return [...groups.entries()]
    .slice(0, MAX_STACKED_POPUPS)
    .map(([reportStatusId, items]) => ({ reportStatusId, items }));
}

/** The items a stack shows (to remember what has popped up already). */
export function itemsOf<T extends TPopupItem>(groups: ReadonlyArray<TPopupGroup<T>>): T[] {
  return groups.flatMap((g) => g.items);
}
