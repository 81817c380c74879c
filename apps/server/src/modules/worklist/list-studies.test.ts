import { describe, expect, it } from 'vitest';
import { AppError } from '@radflow/core';
import { parseDateBound, toStudyDateTime } from './list-studies.js';

describe('toStudyDateTime', () => {
  it('joins a DICOM date and time, padding a short time', () => {
    expect(toStudyDateTime('20240131', '093015.123')).toBe('2024-01-31 09:30:15');
    expect(toStudyDateTime('20240131', '0930')).toBe('2024-01-31 09:30:00');
    expect(toStudyDateTime('20240131', '')).toBe('2024-01-31 00:00:00');
  });
  it('is null without a valid date', () => {
    expect(toStudyDateTime('', '093015')).toBeNull();
    expect(toStudyDateTime('2024-01-31', '')).toBeNull();
  });
});

describe('parseDateBound', () => {
  it('takes a day as a whole UTC day, the end bound exclusive', () => {
    expect(parseDateBound('startTime', '2024-03-10', false)?.toISOString()).toBe('2024-03-10T00:00:00.000Z');
    expect(parseDateBound('endTime', '2024-03-10', true)?.toISOString()).toBe('2024-03-11T00:00:00.000Z');
  });
  it('takes an ISO date-time as is, and blank as no bound', () => {
    expect(parseDateBound('endTime', '2024-03-10T05:00:00Z', true)?.toISOString()).toBe(
      '2024-03-10T05:00:00.000Z',
    );
    expect(parseDateBound('startTime', ' ', false)).toBeNull();
    expect(parseDateBound('startTime', null, false)).toBeNull();
  });
  it('rejects anything else, naming the field', () => {
    for (const bad of ['2024-02-30', '10/03/2024', 'yesterday', '2024-13-01T00:00:00Z']) {
      expect(() => parseDateBound('startTime', bad, false)).toThrow(AppError);
      expect(() => parseDateBound('startTime', bad, false)).toThrow(/startTime/);
    }
  });
});
