import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `delayMs` (filter boxes: 800 ms, spec-core §9). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(t);
  }, [value, delayMs]);
  return settled;
}
