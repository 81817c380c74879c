import { hash, verify } from '@node-rs/argon2';
import { MESSAGE_PASSWORD_COMMON, PASSWORD_MIN_LENGTH, passwordLength, passwordProblem } from '@radflow/core';

/** argon2id (the library's default algorithm) with the OWASP-recommended cost: 19 MiB, 2 passes. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** The lowest cost argon2 takes, for the test suites only (lowerPasswordCostForTests). */
const ARGON2_TEST_OPTIONS = { memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

let argon2Options: typeof ARGON2_OPTIONS | typeof ARGON2_TEST_OPTIONS = ARGON2_OPTIONS;

/**
 * Hashes at the lowest cost from now on in this process: called by the test suites' setup file
 * (test/password-cost.ts) and nothing else. At the production cost each hash and each check takes
 * ~20 ms of CPU, and the suites sign in thousands of times (passwords.test.ts shows the server
 * itself still hashes at the OWASP cost). A check follows the cost written in the stored hash.
 */
export function lowerPasswordCostForTests(): void {
  argon2Options = ARGON2_TEST_OPTIONS;
  dummyHash = undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
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

let commonPasswords: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-password list (NIST 800-63B §3.1.1.2 "values known to be commonly used"): the ~49,000
 * passwords of @zxcvbn-ts/language-common, loaded on the first password change, not at start-up.
 */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  );
  return commonPasswords;
}

/**
 * Why a password the user sets is refused, or null: the core rules (length, e-mail, name), then the
 * common list — the password as typed, and a common password of full length with digits or symbols
 * added after it ('Sunshine2024!': the first thing a guesser tries). A short common word with a
 * suffix ('demo12345') is only checked as typed: the suffix is most of its length.
 */
export async function newPasswordProblem(
  password: string,
  user: { email: string; identifier: string },
): Promise<string | null> {
  const problem = passwordProblem(password, user);
  if (problem) return problem;
  const common = await loadCommonPasswords();
  const typed = password.trim().toLowerCase();
  const stem = typed.replace(/[\d\W_]+$/u, '');
  const commonStem = passwordLength(stem) >= PASSWORD_MIN_LENGTH && common.has(stem);
  return common.has(typed) || commonStem ? MESSAGE_PASSWORD_COMMON : null;
}
