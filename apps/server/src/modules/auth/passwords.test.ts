import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

const serverRoot = path.resolve(import.meta.dirname, '../../..');

/** The cost an argon2 hash was made with, as its encoded form states it ($argon2id$v=19$m=…,t=…,p=…$). */
function costOf(encoded: string): string {
  const cost = /^\$argon2id\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(encoded)?.[1];
  if (!cost) throw new Error(`not an argon2id hash: ${encoded}`);
  return cost;
}

describe('password hashing cost', () => {
  it('hashes at the OWASP cost (19 MiB, 2 passes) in a process the test suites did not set up', async () => {
    // The server as it runs: its module loaded without the suites' setup file (test/password-cost.ts).
    const script =
      "const { hashPassword } = await import('./src/modules/auth/passwords.ts');" +
      "process.stdout.write(await hashPassword('correct horse battery'));";
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: serverRoot, timeout: 60_000 },
    );
    expect(costOf(stdout)).toBe('m=19456,t=2,p=1');
  });

  it('hashes at the lowest cost in the test suites, and such a hash still checks the password', async () => {
    const hash = await hashPassword('test-pass-1');
    expect(costOf(hash)).toBe('m=64,t=1,p=1');
    expect(await verifyPassword(hash, 'test-pass-1')).toBe(true);
    expect(await verifyPassword(hash, 'test-pass-2')).toBe(false);
  });
});
