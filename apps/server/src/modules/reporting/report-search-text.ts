import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type sanitizeHtmlModule from 'sanitize-html';
import type { Tx } from '../../db/client.js';
import { reportSearchDocuments, reportSearchWords, reports } from '../../db/schema.js';
import { onFirstUse } from '../../on-first-use.js';

const sanitizeHtml = onFirstUse<typeof sanitizeHtmlModule>('sanitize-html');

/*
 * The report search's text of a study row (issue 24 §2; report-search/DECISIONS.md), written here, in
 * the transaction of the sign-off, re-sign-off, verification or addendum that changes it, and removed
 * with the reports (rework) or the study (delete). The search module only reads it.
 */

/** Tags that end a line or a cell: a space, so 'lobe.</p><p>No' does not become 'lobe.No'. */
const BREAKING_TAG =
  /<\/?(p|h[1-6]|li|ul|ol|table|thead|tbody|tr|td|th|div|br|hr|blockquote|pre|img)\b[^>]*>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
/** Private-use characters the search's snippet marks matches with; never part of the stored text. */
export const SNIPPET_MARKS = { start: '\uE000', stop: '\uE001' } as const;

/** A report's HTML as the words a reader sees: tags gone, entities decoded, whitespace collapsed. */
export function reportPlainText(html: string): string {
  const text = sanitizeHtml()(html.replace(BREAKING_TAG, ' '), { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/[\uE000\uE001]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Rewrites the row's search text from its signed reports (the main report, then the addenda): call
 * after every write that signs something. A row with no signed report left loses its text.
 */
export async function writeReportSearchText(tx: Tx, reportStatusId: number, groupId: number): Promise<void> {
  const signed = await tx
    .select({ contentHtml: reports.contentHtml, signedOffAt: reports.signedOffAt })
    .from(reports)
    .where(
      and(
        eq(reports.reportStatusId, reportStatusId),
        isNotNull(reports.signedOffAt),
        eq(reports.awaitingVerification, false),
      ),
    )
    .orderBy(asc(reports.isAddendum), asc(reports.id));
  if (signed.length === 0) {
    await removeReportSearchText(tx, reportStatusId);
    return;
  }
  const content = signed.map((r) => reportPlainText(r.contentHtml)).join('\n');
  const signedOffAt = new Date(Math.max(...signed.map((r) => (r.signedOffAt as Date).getTime())));
  await tx
    .insert(reportSearchDocuments)
    .values({ reportStatusId, groupId, signedOffAt, content })
    .onConflictDoUpdate({
      target: [reportSearchDocuments.reportStatusId, reportSearchDocuments.groupId],
      set: { signedOffAt, content },
    });
  // The group's vocabulary for near misses (words of 3-40 letters, numbers left out).
  await tx.execute(sql`insert into ${reportSearchWords} (group_id, word)
    select distinct ${groupId}::integer, w from regexp_split_to_table(lower(${content}), '[^[:alnum:]]+') as w
    where length(w) between 3 and 40 and w !~ '^[0-9]+$'
    on conflict do nothing`);
}

/** The row is no longer searchable: its reports were deleted (rework) or the study was. */
export async function removeReportSearchText(tx: Tx, reportStatusId: number): Promise<void> {
  await tx.delete(reportSearchDocuments).where(eq(reportSearchDocuments.reportStatusId, reportStatusId));
}
