import { ApiError } from '../../api/client';
import {
  TEMPLATE_GENDERS,
  canChangeTemplate,
  checkTemplateWriter,
  type TGroupFlags,
  type TReportTemplate,
  type TRole,
  type TTemplateGender,
} from '@radflow/core';

/** Gender tag labels (the template tag editor and the list). */
export const GENDER_LABELS: Record<TTemplateGender, string> = { M: 'Male', F: 'Female', O: 'Other' };
export const GENDER_OPTIONS = TEMPLATE_GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }));

/** What the signed-in user may do on the template page (core checkTemplateWriter / canChangeTemplate). */
export function templatePermissions(
  roles: readonly TRole[],
  flags: Pick<TGroupFlags, 'disableCreateTemplateOptionToRadiologist'>,
) {
  const writer = checkTemplateWriter({ roles, flags }) === null;
  return {
    canCreate: writer,
    /** The list answers `isOwn` instead of owner ids: same user = same id for the core rule. */
    canChange: (template: Pick<TReportTemplate, 'isOwn'>) =>
      writer && canChangeTemplate({ roles, userId: 1, ownerUserId: template.isOwn ? 1 : 0 }),
  };
}

/** The tags of a template in one line ('CT, MR · Head · Female'), or 'No tags'. */
export function tagSummary(template: Pick<TReportTemplate, 'modalities' | 'bodyParts' | 'gender'>): string {
  const parts = [
    template.modalities.join(', '),
    template.bodyParts.join(', '),
    template.gender ? GENDER_LABELS[template.gender] : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'No tags';
}

/** The filter box: every word must appear in the name, a tag or the owner (case-insensitive). */
export function filterTemplates<
  T extends Pick<TReportTemplate, 'name' | 'modalities' | 'bodyParts' | 'owner'>,
>(templates: readonly T[], text: string): T[] {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...templates];
  return templates.filter((t) => {
    const haystack = [t.name, ...t.modalities, ...t.bodyParts, t.owner].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

/** The plain text of template HTML, for a one-line preview in lists. */
export function previewText(html: string, max = 140): string {
  const text = html
    .replace(/<(br|\/p|\/h\d|\/li)[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The server's words for a refused call (errorDescription), else the client's text. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.body as { errorDescription?: unknown } | null;
    if (body && typeof body.errorDescription === 'string' && body.errorDescription !== '') {
      return body.errorDescription;
    }
    if (error.failure.kind === 'message') return error.failure.text;
  }
  return error instanceof Error ? error.message : String(error);
}
