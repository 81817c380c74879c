/**
 * The browser's localStorage when there is one and it works (private modes may throw on access);
 * undefined otherwise, so callers degrade to "nothing remembered".
 */
export function localStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** A JSON object kept under one key; anything unreadable reads as an empty object. */
export function readJsonMap(storage: Storage | undefined, key: string): Record<string, unknown> {
  try {
    const raw = storage?.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function writeJsonMap(
  storage: Storage | undefined,
  key: string,
  value: Record<string, unknown>,
): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or blocked storage: the table works, it just forgets.
  }
}
