import { TABLE_PAGE_SIZE_DEFAULT, TABLE_PAGE_SIZE_OPTIONS } from '../common/constants.js';
import { type TSearchTableRequest, ZSearchTableRequest } from '../common/schemas.js';

/** Generic study table helpers (spec-core §2 Generic study table behaviour, §2 Study table columns, §3, §9). */

/** spec-core §2: "Tags in a row show the first 2 then a +N chip". */
export const VISIBLE_TAG_COUNT = 2;

export interface TTagChips<T> {
  shown: T[];
  /** How many tags the '+N' chip stands for (0: no chip). */
  hiddenCount: number;
  /** The chip's text, '+N', or null when every tag is shown. */
  moreLabel: string | null;
}

/** spec-core §2 Study table columns: the first 2 tags, then '+N' for the rest. */
export function tagChips<T>(tags: readonly T[] | null | undefined): TTagChips<T> {
  const all = tags ?? [];
  const shown = all.slice(0, VISIBLE_TAG_COUNT);
  const hiddenCount = all.length - shown.length;
  return { shown, hiddenCount, moreLabel: hiddenCount > 0 ? `+${hiddenCount}` : null };
}

/** The query-string parameter that carries an id filter (decision: the spec does not name it). */
export const ID_FILTER_PARAM = 'id';

/**
 * spec-core §2: "An id filter from the query string is used only if numeric". Numeric means digits
 * only (surrounding blanks ignored), a safe integer: '12' → 12; '', '1e3', '-4', '12a', '0x1f' → null.
 * Takes the query string ('?id=12', 'id=12') or its parsed parameters.
 */
export function parseIdFilter(query: string | URLSearchParams | null | undefined): number | null {
  if (query === null || query === undefined) return null;
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const raw = params.get(ID_FILTER_PARAM)?.trim() ?? '';
  if (!/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * spec-core §3 Search-table request defaults: page 0, size 20, sortOrder DESC, orderingCriteria id,
 * no filters, no dates.
 */
export function defaultSearchTableRequest(): TSearchTableRequest {
  return ZSearchTableRequest.parse({});
}

/**
 * The search a table starts with (spec-core §2: "The last search request is kept per table key
 * locally. An id filter from the query string is used only if numeric"): the kept request when it is
 * still valid, else the defaults; a page size other than the table's 20 and 50 (spec-core §9) falls
 * back to 20; a numeric id from the query string replaces the id filter and returns to page 0.
 */
export function initialSearchRequest({
  kept,
  query,
}: {
  kept: unknown;
  query?: string | URLSearchParams | null;
}): TSearchTableRequest {
  const parsed = ZSearchTableRequest.safeParse(kept ?? {});
  const request = parsed.success ? parsed.data : defaultSearchTableRequest();
  if (!(TABLE_PAGE_SIZE_OPTIONS as readonly number[]).includes(request.size)) {
    request.size = TABLE_PAGE_SIZE_DEFAULT;
  }
  const id = parseIdFilter(query);
  if (id === null) return request;
  return { ...request, page: 0, filters: { ...request.filters, id: String(id) } };
}
