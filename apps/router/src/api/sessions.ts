import { createHash, randomBytes } from 'node:crypto';
import { SESSION_TTL_HOURS } from '@radflow/core';
import type { VerifiedUser } from './ports.js';

interface TStoredSession {
  user: VerifiedUser;
  expiresAt: number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The router's own sessions (API.md "Who the user is"): a random 32-byte bearer token per login,
 * kept in memory by its SHA-256 only, expiring after the cloud's session lifetime. A restart of the
 * router signs everyone out, which costs a sign-in and keeps no credential on the router's disk.
 */
export class RouterSessions {
  private readonly sessions = new Map<string, TStoredSession>();
  constructor(private readonly now: () => number = Date.now) {}

  create(user: VerifiedUser): { token: string; expiresAt: Date } {
    this.sweep();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + SESSION_TTL_HOURS * 3_600_000;
    this.sessions.set(hashOf(token), { user, expiresAt });
    return { token, expiresAt: new Date(expiresAt) };
  }

  find(token: string | undefined): VerifiedUser | null {
    if (!token) return null;
    const key = hashOf(token);
    const found = this.sessions.get(key);
    if (!found) return null;
    if (found.expiresAt <= this.now()) {
      this.sessions.delete(key);
      return null;
    }
    return found.user;
  }

  end(token: string | undefined): void {
    if (token) this.sessions.delete(hashOf(token));
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(key);
  }
}
