import { readFileSync } from 'node:fs';

/**
 * The app's clock moved by a file (config TEST_CLOCK_FILE; the browser stories' test clock, issue 23
 * §7 'time driven by a test clock'): the file holds a whole number of milliseconds added to the real
 * clock; a missing or empty file adds nothing. Read at every call, so a story moves the server's
 * time by writing the file, without a restart or an HTTP call that production could reach. Only
 * what reads `ctx.now()` moves (the escalation sweep, the locked-row services, a study made on the
 * website), not the database's own `now()` (the ingest worker's rows). Never set outside tests: config.ts says so.
 */
export function fileOffsetClock(file: string): () => Date {
  return () => new Date(Date.now() + readOffsetMs(file));
}

/** The file's offset in milliseconds; 0 when there is none. A file that is not a number is an error. */
export function readOffsetMs(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  if (text === '') return 0;
  const offset = Number(text);
  if (!Number.isSafeInteger(offset))
    throw new Error(`TEST_CLOCK_FILE ${file}: not a whole number of milliseconds`);
  return offset;
}
