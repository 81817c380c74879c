import { describe, expect, it } from 'vitest';
import { defaultSearchTableRequest, initialSearchRequest, parseIdFilter, tagChips } from './table.js';

describe('tagChips (spec-core §2: the first 2 then a +N chip)', () => {
  it.each([
    [[], [], 0, null],
    [['a'], ['a'], 0, null],
    [['a', 'b'], ['a', 'b'], 0, null],
    [['a', 'b', 'c'], ['a', 'b'], 1, '+1'],
    [['a', 'b', 'c', 'd', 'e'], ['a', 'b'], 3, '+3'],
  ])('%j → %j and %s more (%s)', (tags, shown, hiddenCount, moreLabel) => {
    expect(tagChips(tags)).toEqual({ shown, hiddenCount, moreLabel });
  });
  it('takes a missing tag list as empty', () => {
    expect(tagChips(null)).toEqual({ shown: [], hiddenCount: 0, moreLabel: null });
  });
});

describe('parseIdFilter (spec-core §2: an id filter from the query string only if numeric)', () => {
  it.each<[string | URLSearchParams | null, number | null]>([
    ['?id=12', 12],
    ['id=7&x=1', 7],
    ['?id=%2012%20', 12],
    [new URLSearchParams({ id: '42' }), 42],
    ['?id=', null],
    ['?id=abc', null],
    ['?id=12a', null],
    ['?id=-4', null],
    ['?id=1e3', null],
    ['?id=1.5', null],
    ['?id=0x1f', null],
    ['?id=99999999999999999999', null],
    ['?other=12', null],
    ['', null],
    [null, null],
  ])('%s → %s', (query, id) => {
    expect(parseIdFilter(query)).toBe(id);
  });
});

describe('search-table request (spec-core §3 defaults, §2 kept per table key)', () => {
  it('defaults to page 0, size 20, DESC by id, no filters', () => {
    expect(defaultSearchTableRequest()).toEqual({
      page: 0,
      size: 20,
      sortOrder: 'DESC',
      orderingCriteria: 'id',
      filters: {},
    });
  });

  it('restores a kept request', () => {
    const kept = {
      page: 3,
      size: 50,
      sortOrder: 'ASC',
      orderingCriteria: 'patientName',
      filters: { patient: 'ra' },
    };
    expect(initialSearchRequest({ kept })).toEqual(kept);
  });

  it.each([null, undefined, 'junk', { size: 'big' }, { sortOrder: 'SIDEWAYS' }])(
    'falls back to the defaults for an unusable kept request %j',
    (kept) => {
      expect(initialSearchRequest({ kept })).toEqual(defaultSearchTableRequest());
    },
  );

  it.each([
    [20, 20],
    [50, 50],
    [100, 20],
    [1, 20],
  ])('page size %s → %s (options 20 and 50)', (size, expected) => {
    expect(initialSearchRequest({ kept: { size } }).size).toBe(expected);
  });

  it('applies a numeric id from the query string and returns to page 0', () => {
    const kept = { page: 4, filters: { patient: 'ra', id: '3' } };
    expect(initialSearchRequest({ kept, query: '?id=88' })).toMatchObject({
      page: 0,
      filters: { patient: 'ra', id: '88' },
    });
  });

  it('ignores a non-numeric id', () => {
    const kept = { page: 4, filters: { patient: 'ra' } };
    expect(initialSearchRequest({ kept, query: '?id=8x' })).toMatchObject({
      page: 4,
      filters: { patient: 'ra' },
    });
    expect(initialSearchRequest({ kept, query: '?id=8x' }).filters).not.toHaveProperty('id');
  });
});
