import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../test-fixtures.js';
import { runStorescu } from '../test-support/index.js';
import { type StoreScp, startStoreScp } from './store-scp.js';

/**
 * The idle timer is the peer's silence, not ours: an association whose instance we take longer
 * than the idle timeout to answer is not aborted meanwhile (storescu waits for our response).
 */

const scps: StoreScp[] = [];
afterAll(async () => {
  for (const scp of scps) await scp.close();
});

describe('the SCP’s idle timer', () => {
  it('does not abort an association while its C-STORE is being answered', async () => {
    let answeredAfter = 0;
    const scp = await startStoreScp({
      aeTitle: 'TIMERS',
      port: 0,
      idleTimeoutMs: 300,
      onInstance: async () => {
        const started = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 1200));
        answeredAfter = performance.now() - started;
      },
    });
    scps.push(scp);
    const run = await runStorescu({
      host: '127.0.0.1',
      port: scp.port,
      callingAet: 'SENDER',
      calledAet: 'TIMERS',
      files: [join(FIXTURES_DIR, 'cr_dx/cr_tiny_16x16.dcm')],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(answeredAfter).toBeGreaterThanOrEqual(1000);
  });
});
