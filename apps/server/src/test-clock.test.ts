import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileOffsetClock, readOffsetMs } from './test-clock.js';

const dirs: string[] = [];
const fileIn = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'radflow-clock-'));
  dirs.push(dir);
  return path.join(dir, 'clock');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the test clock (TEST_CLOCK_FILE)', () => {
  it('is the real clock while the file is missing or empty', () => {
    const file = fileOffsetClock(fileIn());
    const before = Date.now();
    const now = file().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('moves by what the file says, read at every call', () => {
    const file = fileIn();
    const clock = fileOffsetClock(file);
    writeFileSync(file, String(31 * 60_000));
    const before = Date.now();
    expect(clock().getTime()).toBeGreaterThanOrEqual(before + 31 * 60_000);
    writeFileSync(file, '');
    expect(readOffsetMs(file)).toBe(0);
  });

  it('refuses a file that is not a number of milliseconds', () => {
    const file = fileIn();
    writeFileSync(file, 'soon');
    expect(() => readOffsetMs(file)).toThrow(/not a whole number of milliseconds/);
  });
});
