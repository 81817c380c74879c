import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZPageResponse, ZSearchTableRequest, toPageResponse } from './schemas.js';

describe('ZSearchTableRequest (spec-core §3 Search-table request)', () => {
  it('defaults to page 0, size 20, DESC by id', () => {
    expect(ZSearchTableRequest.parse({})).toEqual({
      page: 0,
      size: 20,
      sortOrder: 'DESC',
      orderingCriteria: 'id',
      filters: {},
    });
  });

  it('keeps what is given', () => {
    expect(
      ZSearchTableRequest.parse({
        page: 3,
        size: 50,
        sortOrder: 'ASC',
        orderingCriteria: 'createdAt',
        filters: { id: '7' },
      }),
    ).toMatchObject({
      page: 3,
      size: 50,
      sortOrder: 'ASC',
      orderingCriteria: 'createdAt',
      filters: { id: '7' },
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['a negative page', { page: -1 }],
    ['size 0', { size: 0 }],
    ['a fractional page', { page: 1.5 }],
    ['a lower-case sort order', { sortOrder: 'desc' }],
    ['a page as text', { page: '1' }],
  ])('refuses %s', (_name, body) => {
    expect(ZSearchTableRequest.safeParse(body).success).toBe(false);
  });
});

describe('toPageResponse (spec-core §3 Page response)', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('describes the first of several pages', () => {
    expect(toPageResponse(rows(20), 45, 0, 20)).toEqual({
      content: rows(20),
      totalElements: 45,
      pageable: { pageNumber: 0, pageSize: 20 },
      totalPages: 3,
      size: 20,
      numberOfElements: 20,
      number: 0,
      first: true,
      last: false,
      empty: false,
    });
  });

  it('describes a middle page', () => {
    expect(toPageResponse(rows(20), 45, 1, 20)).toMatchObject({
      first: false,
      last: false,
      number: 1,
      totalPages: 3,
    });
  });

  it('describes the last, partial page', () => {
    expect(toPageResponse(rows(5), 45, 2, 20)).toMatchObject({
      first: false,
      last: true,
      numberOfElements: 5,
      totalPages: 3,
      empty: false,
    });
  });

  it('counts an exact multiple without an extra page', () => {
    expect(toPageResponse(rows(20), 40, 1, 20)).toMatchObject({ totalPages: 2, last: true });
    expect(toPageResponse(rows(20), 41, 1, 20)).toMatchObject({ totalPages: 3, last: false });
  });

  it('describes a single page that is both first and last', () => {
    expect(toPageResponse(rows(3), 3, 0, 20)).toMatchObject({
      totalPages: 1,
      first: true,
      last: true,
      empty: false,
    });
  });

  it('describes an empty result', () => {
    expect(toPageResponse([], 0, 0, 20)).toMatchObject({
      totalPages: 0,
      numberOfElements: 0,
      first: true,
      last: true,
      empty: true,
    });
  });

  it('describes a page past the end as last and empty', () => {
    expect(toPageResponse([], 45, 5, 20)).toMatchObject({
      first: false,
      last: true,
      empty: true,
      totalPages: 3,
    });
  });

  it('matches ZPageResponse', () => {
    expect(ZPageResponse(z.number()).safeParse(toPageResponse(rows(5), 45, 2, 20)).success).toBe(true);
  });
});
