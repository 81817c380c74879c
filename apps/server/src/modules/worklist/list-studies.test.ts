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
  it('takes a day as a whole day of the zone, the end bound exclusive', () => {
    expect(parseDateBound('startTime', '2024-03-10', false, 'UTC')?.toISOString()).toBe(
      '2024-03-10T00:00:00.000Z',
    );
    expect(parseDateBound('endTime', '2024-03-10', true, 'UTC')?.toISOString()).toBe(
      '2024-03-11T00:00:00.000Z',
    );
    expect(parseDateBound('startTime', '2024-03-10', false, 'Asia/Kolkata')?.toISOString()).toBe(
      '2024-03-09T18:30:00.000Z',
    );
    expect(parseDateBound('endTime', '2024-03-31', true, 'Asia/Kolkata')?.toISOString()).toBe(
      '2024-03-31T18:30:00.000Z',
    );
  });
  it('takes an ISO date-time as is, and blank as no bound', () => {
    expect(parseDateBound('endTime', '2024-03-10T05:00:00Z', true, 'Asia/Kolkata')?.toISOString()).toBe(
      '2024-03-10T05:00:00.000Z',
    );
    expect(parseDateBound('startTime', ' ', false, 'UTC')).toBeNull();
    expect(parseDateBound('startTime', null, false, 'UTC')).toBeNull();
  });
  it('rejects anything else, naming the field', () => {
    for (const bad of ['2024-02-30', '10/03/2024', 'yesterday', '2024-13-01T00:00:00Z']) {
      expect(() => parseDateBound('startTime', bad, false, 'UTC')).toThrow(AppError);
      expect(() => parseDateBound('startTime', bad, false, 'UTC')).toThrow(/startTime/);
    }
  });
});
