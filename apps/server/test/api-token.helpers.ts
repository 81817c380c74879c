import type { TUserRow } from '../src/db/schema.js';
import { createSession } from '../src/modules/credentials/sessions.js';
import { mintApiToken } from '../src/modules/credentials/api-token.js';
import type { TestApp } from './test-app.js';

/** A DICOMweb client's API token for a user, minted as GET /api/user/token does from a session. */
export async function apiTokenFor(t: TestApp, user: TUserRow): Promise<string> {
  const now = t.app.ctx.now();
  const { sessionId } = await createSession(t.db, { userId: user.id, deviceId: null, now });
  return (await mintApiToken(t.db, { user, sessionId, now })).token;
}
