import { describe, expect, it } from 'vitest';
import { ZReportSearchRequest, canSearchReports, reportSearchRangeProblem } from './report-search.js';

describe('canSearchReports (spec-core §2 Menu per role: Report Search)', () => {
  it('is the center, admin and doctor menus', () => {
    expect(canSearchReports(['ROLE_CENTER'])).toBe(true);
    expect(canSearchReports(['ROLE_ADMIN'])).toBe(true);
    expect(canSearchReports(['ROLE_DOCTOR'])).toBe(true);
  });
  it('is no one else', () => {
    for (const role of [
      'ROLE_TYPIST',
      'ROLE_ASSIGNOR',
      'ROLE_CUSTOMER',
      'ROLE_GROUP',
      'ROLE_REFERRING_DOCTOR',
    ] as const) {
      expect(canSearchReports([role])).toBe(false);
    }
  });
});

describe('reportSearchRangeProblem', () => {
  it('leaves either day open', () => {
    expect(reportSearchRangeProblem('', '')).toBeNull();
    expect(reportSearchRangeProblem('2026-01-01', '')).toBeNull();
    expect(reportSearchRangeProblem('', '2026-01-01')).toBeNull();
    expect(reportSearchRangeProblem('2020-01-01', '2026-01-01')).toBeNull();
  });
  it('names the field that is not a day, or the end before the start', () => {
    expect(reportSearchRangeProblem('2026-02-30', '')?.field).toBe('startTime');
    expect(reportSearchRangeProblem('', 'yesterday')?.field).toBe('endTime');
    expect(reportSearchRangeProblem('2026-03-02', '2026-03-01')).toEqual({
      field: 'endTime',
      message: 'End date must not be before start date',
    });
  });
});

describe('ZReportSearchRequest', () => {
  it('defaults to the first page of 20', () => {
    expect(ZReportSearchRequest.parse({})).toMatchObject({ page: 0, size: 20, keywords: '' });
  });
  it('takes 20 or 50 a page only', () => {
    expect(ZReportSearchRequest.parse({ size: 50 }).size).toBe(50);
    expect(ZReportSearchRequest.safeParse({ size: 30 }).success).toBe(false);
  });
});
