import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, type TOfflineTemplates, type TReportTemplate } from '@radflow/core';
import { writeFileDurably } from '../queue/fs-durable.js';
import { MESSAGE_CLOUD_UNREACHABLE } from './cloud-login.js';
import type { CloudLogin, VerifiedUser } from './ports.js';

export const MESSAGE_NO_OFFLINE_SIGN_IN =
  'The cloud could not be reached, and this user has not signed in to this router while it was online';

interface TVerifier {
  identifier: string;
  salt: string;
  hash: string;
  savedAt: string;
  /** The doctor's grant from the same online sign-in (cloud-login.ts), for their offline saves. */
  grant?: string;
  /** Their report templates as the cloud listed them at an online sign-in, and when. */
  templates?: TReportTemplate[];
  templatesSavedAt?: string;
}

const KEY_BYTES = 32;
const derive = (password: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, { N: 16384, r: 8, p: 1 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/**
 * Offline sign-in for hybrid users (HYBRID.md "Signing in offline"): when the cloud accepted a
 * hybrid user's password, the router keeps a salted scrypt verifier of it (never the password) in
 * `<ROUTER_DATA_DIR>/hybrid/credentials.json`; with the cloud unreachable, that verifier signs them
 * in. Beside it: their grant and their report templates from the same sign-in (the editor's offline
 * template chooser). A password the cloud refuses removes all of it. Center users without hybrid
 * mode get no verifier: the router's other screens need the cloud anyway.
 */
export class OfflineCredentials {
  private constructor(
    private readonly dir: string,
    private readonly verifiers: Map<string, TVerifier>,
  ) {}

  static async open(dataDir: string): Promise<OfflineCredentials> {
    const dir = join(dataDir, 'hybrid');
    await mkdir(dir, { recursive: true });
    const text = await readFile(join(dir, 'credentials.json'), 'utf8').catch(() => '{}');
    let stored: Record<string, TVerifier> = {};
    try {
      stored = JSON.parse(text) as Record<string, TVerifier>;
    } catch {
      // A damaged file costs each hybrid user one online sign-in, nothing more.
    }
    return new OfflineCredentials(dir, new Map(Object.entries(stored)));
  }

  private async persist(): Promise<void> {
    const bytes = Buffer.from(JSON.stringify(Object.fromEntries(this.verifiers)));
    await writeFileDurably(join(this.dir, 'credentials.json'), bytes, join(this.dir, 'credentials.json.tmp'));
  }

  async remember(user: VerifiedUser, password: string): Promise<void> {
    const salt = randomBytes(16);
    const hash = await derive(password, salt);
    const key = user.email.toLowerCase();
    const now = new Date().toISOString();
    // Templates the cloud did not answer this time: those of the last sign-in stay, with their date.
    const before = this.verifiers.get(key);
    const templates = user.templates ?? before?.templates;
    const templatesSavedAt = user.templates ? now : before?.templatesSavedAt;
    this.verifiers.set(key, {
      identifier: user.identifier,
      salt: salt.toString('base64'),
      hash: hash.toString('base64'),
      savedAt: now,
      ...(user.offlineGrant ? { grant: user.offlineGrant } : {}),
      ...(templates ? { templates } : {}),
      ...(templatesSavedAt ? { templatesSavedAt } : {}),
    });
    await this.persist();
  }

  /** This user's templates from their last online sign-in here that listed them (none: empty). */
  templatesOf(email: string): TOfflineTemplates {
    const verifier = this.verifiers.get(email.toLowerCase());
    return { savedAt: verifier?.templatesSavedAt ?? null, templates: verifier?.templates ?? [] };
  }

  /** The grant of this user's last online sign-in here, if the cloud gave one. */
  grantOf(email: string): string | undefined {
    return this.verifiers.get(email.toLowerCase())?.grant;
  }

  async forget(email: string): Promise<void> {
    if (this.verifiers.delete(email.toLowerCase())) await this.persist();
  }

  async check(email: string, password: string): Promise<VerifiedUser | null> {
    const verifier = this.verifiers.get(email.toLowerCase());
    if (!verifier) return null;
    const expected = Buffer.from(verifier.hash, 'base64');
    const actual = await derive(password, Buffer.from(verifier.salt, 'base64'));
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
    return { email: email.toLowerCase(), identifier: verifier.identifier, hybrid: true };
  }
}

/** The cloud check first; with the cloud unreachable, a hybrid user's stored verifier. */
export function withOfflineSignIn(cloud: CloudLogin, credentials: OfflineCredentials): CloudLogin {
  return {
    async verify(input) {
      try {
        const user = await cloud.verify(input);
        if (user.hybrid) await credentials.remember(user, input.password);
        else await credentials.forget(input.email);
        return user;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.message !== MESSAGE_CLOUD_UNREACHABLE) {
          // The cloud said no (wrong password, deactivated, no longer hybrid): no offline way in either.
          if (error.kind === 'UNAUTHORIZED' || error.kind === 'FORBIDDEN')
            await credentials.forget(input.email);
          throw error;
        }
        const offline = await credentials.check(input.email, input.password);
        if (offline) return offline;
        throw new AppError('UPSTREAM_FAILED', MESSAGE_NO_OFFLINE_SIGN_IN);
      }
    },
  };
}
