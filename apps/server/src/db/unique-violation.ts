/** Postgres's SQLSTATE for unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Did this write fail on a unique key (two writes of one key at once, or a key taken)? The one
 * check for every module. Both engines put SQLSTATE on `.code` (PGlite's and node-postgres's
 * DatabaseError), and drizzle wraps it in a DrizzleQueryError's `.cause`, sometimes more than
 * once, so the whole `.cause` chain is walked; a chain that loops ends the walk.
 */
export function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<object>();
  for (
    let e: unknown = error;
    e && typeof e === 'object' && !seen.has(e);
    e = (e as { cause?: unknown }).cause
  ) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
    seen.add(e);
  }
  return false;
}
