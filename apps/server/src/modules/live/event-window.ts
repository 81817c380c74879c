/**
 * Which `study_events` ids the feed has read, and which it must read again (README "Out-of-order
 * commits"). Ids come from one sequence but transactions commit in any order: id 101 may be
 * visible while 100 is still uncommitted, and 100 appears later. Reading `id > highest` alone
 * would skip 100 for good. So an id below the highest seen that was not there when its neighbours
 * were read is *pending*: the next reads ask for it by id too, until it appears, or until it has been
 * missing for `pendingTtlMs` (a rolled-back insert leaves a hole for ever; a transaction that long
 * is left to the lists' 25 s refresh). Pure: the feed's SQL takes `highest` and `pending()`.
 */
export class EventWindow {
  private high: number;
  /** Missing id → when it was first found missing (ms). */
  private readonly missing = new Map<number, number>();
  private readonly pendingTtlMs: number;
  private readonly maxPending: number;

  constructor(opts: { highest: number; pendingTtlMs: number; maxPending: number }) {
    this.high = opts.highest;
    this.pendingTtlMs = opts.pendingTtlMs;
    this.maxPending = opts.maxPending;
  }

  /** The highest id read so far. */
  get highest(): number {
    return this.high;
  }

  /** The ids to ask for again (missing below `highest`), lowest first. */
  pending(): number[] {
    return [...this.missing.keys()].sort((a, b) => a - b);
  }

  /**
   * Takes the ids a read returned (`id > highest or id in pending()`, ascending, possibly cut by
   * a limit) and answers those not seen before. An id between the previous highest and the new
   * one that the read did not return becomes pending.
   */
  accept(ids: readonly number[], now: number): number[] {
    const fresh: number[] = [];
    for (const id of [...ids].sort((a, b) => a - b)) {
      if (id > this.high) {
        // A jump wider than maxPending keeps only the nearest holes (trim would drop the rest).
        for (let hole = Math.max(this.high + 1, id - this.maxPending); hole < id; hole++) {
          this.missing.set(hole, now);
        }
        this.high = id;
        fresh.push(id);
      } else if (this.missing.delete(id)) {
        fresh.push(id);
      }
      // else: already read (a re-read of the window, or a duplicate).
    }
    this.trim(now);
    return fresh;
  }

  /** Marks ids below `highest` as missing (the feed's start: holes in the last rows). */
  markMissing(ids: readonly number[], now: number): void {
    for (const id of ids) if (id < this.high) this.missing.set(id, now);
    this.trim(now);
  }

  /** Gives up on ids missing for longer than the TTL, and on the oldest beyond `maxPending`. */
  trim(now: number): void {
    for (const [id, since] of this.missing) {
      if (now - since > this.pendingTtlMs) this.missing.delete(id);
    }
    if (this.missing.size > this.maxPending) {
      for (const id of this.pending().slice(0, this.missing.size - this.maxPending)) this.missing.delete(id);
    }
  }

  /**
   * The resume point: every id at or below it has been read (or given up on). A client told this
   * id and resuming from it loses nothing the feed could still deliver; it may get some twice.
   */
  floor(): number {
    let lowest = this.high + 1;
    for (const id of this.missing.keys()) if (id < lowest) lowest = id;
    return lowest - 1;
  }
}
