import { useSyncExternalStore } from 'react';
import { localStore, readJsonMap, writeJsonMap } from '../worklist/browser-storage';

/** Before the time this browser last saved or printed the row's report. */
export const DOWNLOADED_HERE = 'Downloaded here';

/**
 * Downloaded-report tracking (spec-core §1 local flags, spec-lab §9): which study rows' reports this
 * browser saved or printed, per user, so that a center printing a day's reports sees which are done.
 * Kept in localStorage by month ('YYYY-MM' → row id → ISO time) and purged by month: only this month
 * and the one before are kept (a report fetched on the 31st still shows on the 1st).
 */
const KEY_PREFIX = 'radflow.downloadedReports.';

type TMonths = Record<string, Record<string, string>>;

/** The calendar month of a time, in the browser's zone (the month the user lives in). */
export function monthOf(at: Date): string {
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}`;
}

function keptMonths(now: Date): [string, string] {
  return [monthOf(now), monthOf(new Date(now.getFullYear(), now.getMonth() - 1, 1))];
}

function readMonths(storage: Storage | undefined, owner: string, now: Date): TMonths {
  const stored = readJsonMap(storage, KEY_PREFIX + owner);
  const kept: TMonths = {};
  for (const month of keptMonths(now)) {
    const entries = stored[month];
    if (entries && typeof entries === 'object' && !Array.isArray(entries)) {
      kept[month] = Object.fromEntries(
        Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    }
  }
  return kept;
}

/** Notes that `owner` downloaded the report of row `reportStatusId` at `at`; older months go. */
export function recordDownload(
  storage: Storage | undefined,
  owner: string,
  reportStatusId: number,
  at: Date,
): void {
  const months = readMonths(storage, owner, at);
  const month = monthOf(at);
  months[month] = { ...months[month], [String(reportStatusId)]: at.toISOString() };
  writeJsonMap(storage, KEY_PREFIX + owner, months);
  for (const listener of listeners) listener();
}

/** When `owner` last downloaded that row's report in the kept months, or undefined. */
export function downloadedAt(
  storage: Storage | undefined,
  owner: string,
  reportStatusId: number,
  now: Date,
): string | undefined {
  const months = readMonths(storage, owner, now);
  const times = Object.values(months)
    .map((entries) => entries[String(reportStatusId)])
    .filter((t): t is string => t !== undefined);
  return times.sort().at(-1);
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of this browser downloading shows here too.
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith(KEY_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The row's last download by `owner` in this browser, kept current across the page and tabs. */
export function useDownloadedAt(owner: string, reportStatusId: number): string | undefined {
  return useSyncExternalStore(subscribe, () => downloadedAt(localStore(), owner, reportStatusId, new Date()));
}

/** Notes a download in this browser's storage (the menu calls it after a save or a print). */
export function noteDownloaded(owner: string, reportStatusId: number): void {
  recordDownload(localStore(), owner, reportStatusId, new Date());
}
