import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with the OWASP-recommended cost: 19 MiB, 2 passes. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed check, not a crash.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the account does not exist, so response times do not
 * tell which identifiers are registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('radflow-dummy-password');
  await verifyPassword(await dummyHash, password);
  return false;
}
