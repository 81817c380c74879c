import { hasRole, normalizeTag, type TRole, type TStudyTag } from '@radflow/core';

/**
 * Who may delete a tag or switch it local/global: its creator or an admin (core canChangeReportTag
 * reads user ids; the row carries the creator's e-mail, so the browser compares e-mails).
 */
export function canChangeTag(
  actor: { roles: readonly TRole[]; email: string },
  tag: Pick<TStudyTag, 'createdBy'>,
): boolean {
  return tag.createdBy.toLowerCase() === actor.email.toLowerCase() || hasRole(actor.roles, 'ROLE_ADMIN');
}

/**
 * The tag to assign from the typed or chosen text, or null when there is nothing to do: empty
 * (spec-core §5 "nothing happens if empty") or already on the study.
 */
export function tagToAssign(text: string, current: readonly Pick<TStudyTag, 'tag'>[]): string | null {
  const tag = normalizeTag(text);
  if (!tag) return null;
  return current.some((t) => t.tag.toLowerCase() === tag.toLowerCase()) ? null : tag;
}

/** The choices offered: the known tags not on the study yet, each once, sorted. */
export function tagChoiceOptions(
  choices: readonly { tag: string }[],
  current: readonly Pick<TStudyTag, 'tag'>[],
): string[] {
  const onStudy = new Set(current.map((t) => t.tag.toLowerCase()));
  const names = new Set(choices.map((c) => c.tag).filter((t) => !onStudy.has(t.toLowerCase())));
  return [...names].sort((a, b) => a.localeCompare(b));
}
