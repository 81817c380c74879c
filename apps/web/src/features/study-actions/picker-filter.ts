/** spec-core §9: option lists show at most 30 items. */
export const MAX_PICKER_OPTIONS = 30;

/** The options containing the search text (case-insensitive), at most MAX_PICKER_OPTIONS. */
export function filterUserOptions(options: readonly string[], search: string): string[] {
  const needle = search.trim().toLowerCase();
  const matches = needle ? options.filter((o) => o.toLowerCase().includes(needle)) : options;
  return matches.slice(0, MAX_PICKER_OPTIONS);
}
