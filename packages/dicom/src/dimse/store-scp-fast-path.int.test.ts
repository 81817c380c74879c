import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../test-fixtures.js';
import { runStorescu } from '../test-support/dcmtk.js';
import { dimse } from './library.js';
import { DimseReceiveHookError, type StoreScp, startStoreScp } from './store-scp.js';
import { assertReceiveHook } from './store-scp-fast-path.js';

/**
 * Issue 22 §3: the SCP owns its receive path (store-scp-fast-path.ts). A C-STORE sent by DCMTK's
 * storescu is read by our path, not by dcmjs-dimse's own, and a dcmjs-dimse without the hook that
 * path needs stops the SCP from starting, with an error that says so.
 */

const scps: StoreScp[] = [];
afterAll(async () => {
  for (const scp of scps) await scp.close();
});

describe('the SCP’s receive path', () => {
  it('reads every C-STORE of a storescu send itself, none through dcmjs-dimse', async () => {
    const received: string[] = [];
    const scp = await startStoreScp({
      aeTitle: 'FASTPATH',
      port: 0,
      inMemoryWithoutFile: true,
      onInstance: (instance) => void received.push(instance.sopInstanceUid),
    });
    scps.push(scp);
    const file = join(FIXTURES_DIR, 'cr_dx/cr_tiny_16x16.dcm');
    const run = await runStorescu({
      host: '127.0.0.1',
      port: scp.port,
      callingAet: 'SENDER',
      calledAet: 'FASTPATH',
      files: [file, file, file],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(received).toHaveLength(3);
    expect(scp.receivedBy()).toEqual({ fastPath: 3, library: 0 });
  });

  it('finds the hook in the installed dcmjs-dimse', () => {
    expect(() => assertReceiveHook(dimse.Scp)).not.toThrow();
  });

  it('refuses a dcmjs-dimse without the hook, or with another shape of it, naming what is missing', () => {
    class WithoutHook {}
    expect(() => assertReceiveHook(WithoutHook as unknown as typeof dimse.Scp)).toThrow(
      DimseReceiveHookError,
    );
    expect(() => assertReceiveHook(WithoutHook as unknown as typeof dimse.Scp)).toThrow(/no _processPdu/);
    class OtherShape {
      _processPdu(_pdu: Buffer, _more: unknown) {
        return undefined;
      }
    }
    expect(() => assertReceiveHook(OtherShape as unknown as typeof dimse.Scp)).toThrow(
      /_processPdu takes 2 parameters/,
    );
  });
});
