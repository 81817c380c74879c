import { describe, expect, it } from 'vitest';
import { downloadedAt, monthOf, recordDownload } from './downloaded-reports';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, v),
  };
}

describe('downloaded-report tracking', () => {
  it('remembers a download per user and row', () => {
    const storage = memoryStorage();
    const at = new Date(2026, 10, 20, 9, 30);
    recordDownload(storage, 'u1', 42, at);
    expect(downloadedAt(storage, 'u1', 42, at)).toBe(at.toISOString());
    expect(downloadedAt(storage, 'u1', 43, at)).toBeUndefined();
    expect(downloadedAt(storage, 'u2', 42, at)).toBeUndefined();
  });

  it('keeps this month and the one before, and purges older months on the next write', () => {
    const storage = memoryStorage();
    recordDownload(storage, 'u1', 1, new Date(2026, 8, 30, 12));
    recordDownload(storage, 'u1', 2, new Date(2026, 9, 31, 23));
    const firstOfNovember = new Date(2026, 10, 1, 8);
    // September is two months back: no longer shown.
    expect(downloadedAt(storage, 'u1', 1, firstOfNovember)).toBeUndefined();
    expect(downloadedAt(storage, 'u1', 2, firstOfNovember)).toBeDefined();
    recordDownload(storage, 'u1', 3, firstOfNovember);
    const stored = JSON.parse(storage.getItem('radflow.downloadedReports.u1') ?? '{}') as object;
    expect(Object.keys(stored).sort()).toEqual(['2026-10', '2026-11']);
    // January keeps December across the year's turn.
    expect(monthOf(new Date(2027, 0, 3))).toBe('2027-01');
    recordDownload(storage, 'u1', 4, new Date(2026, 11, 31, 22));
    expect(downloadedAt(storage, 'u1', 4, new Date(2027, 0, 3))).toBeDefined();
  });

  it('answers the latest of two downloads and reads broken storage as nothing', () => {
    const storage = memoryStorage();
    recordDownload(storage, 'u1', 7, new Date(2026, 9, 10));
    const later = new Date(2026, 10, 2);
    recordDownload(storage, 'u1', 7, later);
    expect(downloadedAt(storage, 'u1', 7, later)).toBe(later.toISOString());
    storage.setItem('radflow.downloadedReports.u1', '{not json');
    expect(downloadedAt(storage, 'u1', 7, later)).toBeUndefined();
    recordDownload(storage, 'u1', 8, later);
    expect(downloadedAt(storage, 'u1', 8, later)).toBe(later.toISOString());
  });
});
