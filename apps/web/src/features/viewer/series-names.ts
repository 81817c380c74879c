import type { TSeriesNameMapping } from '@radflow/core';

const keyOf = (name: string) => name.trim().toLowerCase();

/**
 * The name shown for a series: the center's preferred name when its series name matches the
 * Series Description (trimmed, case-insensitive: scanners vary the case), else the description,
 * else 'Series {number}'.
 */
export function displaySeriesName(
  description: string,
  seriesNumber: number | null,
  mappings: readonly TSeriesNameMapping[],
): string {
  const wanted = keyOf(description);
  const mapped = wanted ? mappings.find((m) => keyOf(m.seriesName) === wanted) : undefined;
  if (mapped?.preferredName.trim()) return mapped.preferredName.trim();
  if (description.trim()) return description.trim();
  return seriesNumber === null ? 'Series' : `Series ${seriesNumber}`;
}
