import type { TChatMember } from '@radflow/core';

/**
 * The '@' typing of the chat box, pure: which mention is being typed at the caret, what choosing a
 * person writes, and which chosen people the text still names when it is sent.
 */

/** The '@…' being typed just before the caret: '@' at the start or after a space, on one line. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (query.includes('\n') || query.length > 40) return null;
  return { start: at, query };
}

/** The members whose name (or e-mail) starts with the query, case-insensitively; at most 8. */
export function matchingMembers(members: readonly TChatMember[], query: string): TChatMember[] {
  const q = query.toLowerCase();
  return members
    .filter((m) => m.name.toLowerCase().startsWith(q) || m.email.toLowerCase().startsWith(q))
    .slice(0, 8);
}

/** The text with the '@query' at `start…caret` replaced by '@Name ', and the caret after it. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  name: string,
): { text: string; caret: number } {
  const written = `@${name} `;
  return { text: text.slice(0, start) + written + text.slice(caret), caret: start + written.length };
}

/** The chosen people whose '@Name' is still in the text (a deleted mention is no mention). */
export function mentionedIds(text: string, chosen: readonly TChatMember[]): number[] {
  return [...new Set(chosen.filter((m) => text.includes(`@${m.name}`)).map((m) => m.userId))];
}
