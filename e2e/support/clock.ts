import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { storyServer } from './server.js';

/**
 * Moves the story server's clock forward by `ms` (its TEST_CLOCK_FILE, apps/server/src/test-clock.ts):
 * whatever reads the app's clock — the critical-result escalation sweep, the services' "now" — is
 * that much later from here on. Forward only, and never put back: the files that run after this one
 * on the same server find a clock that only ever went forward, as a real one does.
 */
export function moveServerClock(ms: number): void {
  const file = storyServer().clockFile;
  const current = existsSync(file) ? Number(readFileSync(file, 'utf8').trim() || '0') : 0;
  writeFileSync(file, String(current + ms));
}
