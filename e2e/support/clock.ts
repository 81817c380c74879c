import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { storyServer } from './server.js';

/**
 * Moves the story server's clock forward by `ms` (its TEST_CLOCK_FILE, apps/server/src/test-clock.ts):
 * whatever reads the app's clock — the critical-result escalation sweep, the services' "now" — is
 * that much later from here on. Forward only, and never put back: the files that run after this one
 * on the same server find a clock that only ever went forward, as a real one does.
 */
export function moveServerClock(ms: number): void {
  writeFileSync(storyServer().clockFile, String(serverClockLead() + ms));
}

/** How far (ms) the story server's clock runs ahead of the real one. */
export function serverClockLead(): number {
  const file = storyServer().clockFile;
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim() || '0') : 0;
}

/**
 * Runs a story whose premise is a clock that runs at its normal pace (a limit minutes away, a
 * forecast inside or outside it). A story in the other worker may move the server's clock
 * (`moveServerClock`) meanwhile; a failure is then no finding, and the story runs once more with a
 * fresh `attempt` (for names it must not repeat). A failure while the clock held is thrown.
 */
export async function withSteadyClock(story: (attempt: number) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const lead = serverClockLead();
    try {
      await story(attempt);
      return;
    } catch (err) {
      if (attempt >= 3 || serverClockLead() === lead) throw err;
    }
  }
}
