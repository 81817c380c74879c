import { z } from 'zod';
import { TABLE_PAGE_SIZE_DEFAULT } from './constants.js';

/** spec-core §3 Search-table request. */
export const ZSearchTableRequest = z
  .object({
    page: z.number().int().min(0).default(0),
    size: z.number().int().min(1).max(200).default(TABLE_PAGE_SIZE_DEFAULT),
    sortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
    orderingCriteria: z.string().max(64).default('id'),
    filters: z.record(z.string(), z.string().max(200)).default({}),
    startTime: z.string().max(32).nullish(),
    endTime: z.string().max(32).nullish(),
    summaryType: z.string().max(32).nullish(),
  })
  .meta({ id: 'SearchTableRequest' });
export type TSearchTableRequest = z.infer<typeof ZSearchTableRequest>;

/** spec-core §3 Page response. */
export function ZPageResponse<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    pageable: z.object({ pageNumber: z.number().int(), pageSize: z.number().int() }),
    totalPages: z.number().int(),
    size: z.number().int(),
    numberOfElements: z.number().int(),
    number: z.number().int(),
    first: z.boolean(),
    last: z.boolean(),
    empty: z.boolean(),
  });
}

/** Builds a page response from one page of rows and the total (pure, shared by all list calls). */
export function toPageResponse<T>(content: T[], totalElements: number, page: number, size: number) {
  const totalPages = size > 0 ? Math.ceil(totalElements / size) : 0;
  return {
    content,
    totalElements,
    pageable: { pageNumber: page, pageSize: size },
    totalPages,
    size,
    numberOfElements: content.length,
    number: page,
    first: page === 0,
    last: page >= totalPages - 1,
    empty: content.length === 0,
  };
}

export const ZOk = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
