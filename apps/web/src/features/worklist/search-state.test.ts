import { defaultSearchTableRequest } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import {
  TABLE_FILTER_STORAGE_KEY,
  cleanDate,
  hasDateRange,
  keepSearch,
  loadSearch,
  toggleSort,
  withDateRange,
} from './search-state';

const store = () => window.localStorage;

describe('the last search per table key (spec-core §2)', () => {
  it('starts from the defaults when nothing is kept', () => {
    expect(loadSearch(store(), 'studyList', '')).toEqual(defaultSearchTableRequest());
  });

  it('keeps each table’s search apart and reads it back', () => {
    const doctor = { ...defaultSearchTableRequest(), page: 2, size: 50, filters: { patientName: 'ram' } };
    const center = {
      ...defaultSearchTableRequest(),
      orderingCriteria: 'patientName',
      sortOrder: 'ASC' as const,
    };
    keepSearch(store(), 'studyList', doctor);
    keepSearch(store(), 'centerReportList', center);
    expect(loadSearch(store(), 'studyList', '')).toEqual(doctor);
    expect(loadSearch(store(), 'centerReportList', '')).toEqual(center);
    expect(Object.keys(JSON.parse(store().getItem(TABLE_FILTER_STORAGE_KEY)!) as object)).toEqual([
      'studyList',
      'centerReportList',
    ]);
  });

  it('takes the id filter from ?id= only when it is numeric, back on page 0', () => {
    keepSearch(store(), 'studyList', { ...defaultSearchTableRequest(), page: 3, filters: { id: '7' } });
    expect(loadSearch(store(), 'studyList', '?id=42')).toMatchObject({ page: 0, filters: { id: '42' } });
    expect(loadSearch(store(), 'studyList', '?id=42abc')).toMatchObject({ page: 3, filters: { id: '7' } });
    expect(loadSearch(store(), 'studyList', '?id=-1')).toMatchObject({ filters: { id: '7' } });
  });

  it('drops a sort column the list calls do not know, a foreign page size and blank filters', () => {
    store().setItem(
      TABLE_FILTER_STORAGE_KEY,
      JSON.stringify({
        studyList: {
          ...defaultSearchTableRequest(),
          orderingCriteria: 'dropTable',
          size: 35,
          filters: { patientName: '  ' },
        },
      }),
    );
    expect(loadSearch(store(), 'studyList', '')).toMatchObject({
      orderingCriteria: 'id',
      sortOrder: 'DESC',
      size: 20,
      filters: {},
    });
  });

  it('reads unreadable storage as nothing kept', () => {
    store().setItem(TABLE_FILTER_STORAGE_KEY, '{not json');
    expect(loadSearch(store(), 'studyList', '')).toEqual(defaultSearchTableRequest());
    expect(loadSearch(undefined, 'studyList', '')).toEqual(defaultSearchTableRequest());
  });
});

describe('header sorting', () => {
  it('sorts a new column descending, flips the same column, and returns to page 0', () => {
    const start = { ...defaultSearchTableRequest(), page: 4 };
    const byName = toggleSort(start, 'patientName');
    expect(byName).toMatchObject({ orderingCriteria: 'patientName', sortOrder: 'DESC', page: 0 });
    expect(toggleSort(byName, 'patientName').sortOrder).toBe('ASC');
    expect(toggleSort(toggleSort(byName, 'patientName'), 'patientName').sortOrder).toBe('DESC');
  });
});

describe('the date range (spec-core §3 startTime/endTime, §9 yyyy-MM-dd)', () => {
  it('sets each bound apart, back on page 0, and drops an emptied one from the request', () => {
    const start = { ...defaultSearchTableRequest(), page: 3 };
    const from = withDateRange(start, { startTime: '2026-11-01' });
    expect(from).toMatchObject({ page: 0, startTime: '2026-11-01' });
    expect(from).not.toHaveProperty('endTime');
    const both = withDateRange(from, { endTime: '2026-11-20' });
    expect(both).toMatchObject({ startTime: '2026-11-01', endTime: '2026-11-20' });
    expect(hasDateRange(both)).toBe(true);
    const cleared = withDateRange(both, { startTime: '', endTime: null });
    expect(cleared).not.toHaveProperty('startTime');
    expect(cleared).not.toHaveProperty('endTime');
    expect(hasDateRange(cleared)).toBe(false);
  });

  it('keeps the range per table key and drops a kept bound that is not yyyy-MM-dd', () => {
    keepSearch(store(), 'studyList', withDateRange(defaultSearchTableRequest(), { startTime: '2026-01-05' }));
    expect(loadSearch(store(), 'studyList', '')).toMatchObject({ startTime: '2026-01-05' });
    expect(loadSearch(store(), 'adminStudyList', '')).not.toHaveProperty('startTime');

    store().setItem(
      TABLE_FILTER_STORAGE_KEY,
      JSON.stringify({
        studyList: { ...defaultSearchTableRequest(), startTime: '05/01/2026', endTime: '2026-01-31' },
      }),
    );
    const loaded = loadSearch(store(), 'studyList', '');
    expect(loaded).not.toHaveProperty('startTime');
    expect(loaded.endTime).toBe('2026-01-31');
  });

  it.each([
    ['2026-11-21', '2026-11-21'],
    [' 2026-11-21 ', '2026-11-21'],
    ['2026-11-21T10:00:00Z', null],
    ['', null],
    [null, null],
  ])('cleanDate(%j) → %j', (value, expected) => {
    expect(cleanDate(value)).toBe(expected);
  });
});
