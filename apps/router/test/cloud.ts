/**
 * The cloud for the router's integration tests: the server built in process on a fresh database,
 * listening on 127.0.0.1, a center with a user and that user's API token (as GET /api/user/token
 * mints it), and a look into what the cloud stored for a study.
 */
import { and, eq } from 'drizzle-orm';
import { instances, studies } from '../../server/src/db/schema.js';
import { apiTokenFor } from '../../server/test/api-token.helpers.js';
import { createArchiveWorld } from '../../server/test/archive/helpers.js';
import type { TGroupFlags } from '@radflow/core';
import {
  createTestApp,
  setGroupPreference,
  TEST_PASSWORD,
  type TestApp,
} from '../../server/test/test-app.js';

export interface TestCloud {
  readonly t: TestApp;
  readonly port: number;
  readonly token: string;
  readonly groupId: number;
  /** The center of the token's user (its studies are the ones the router may report offline). */
  readonly centerId: number;
  /** The center user whose token the router uploads with, to sign in to the router's local API. */
  readonly centerUser: { readonly email: string; readonly password: string };
  /** The cloud's instances of a study: SOP Instance UID and sha256 of the stored copy. */
  instancesOf(studyInstanceUid: string): Promise<{ sopInstanceUid: string; sha256: string }[]>;
  close(): Promise<void>;
}

/** `flags`: the group switches of the center's group (e.g. the router's own, issue 29 §6). */
export async function startTestCloud(flags: Partial<TGroupFlags> = {}): Promise<TestCloud> {
  const t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const world = await createArchiveWorld(t);
  if (Object.keys(flags).length > 0) {
    await setGroupPreference(t.db, world.group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', flags);
    await setGroupPreference(t.db, world.group.id, 'GROUP_SWITCHES', flags);
  }
  const token = await apiTokenFor(t, world.center.user);
  return {
    t,
    port: Number(new URL(address).port),
    token,
    groupId: world.group.id,
    centerId: world.centerA.id,
    centerUser: { email: world.center.user.email, password: TEST_PASSWORD },
    async instancesOf(studyInstanceUid) {
      return t.db
        .select({ sopInstanceUid: instances.sopInstanceUid, sha256: instances.sha256 })
        .from(instances)
        .innerJoin(studies, eq(studies.id, instances.studyId))
        .where(and(eq(studies.groupId, world.group.id), eq(studies.studyInstanceUid, studyInstanceUid)));
    },
    close: () => t.close(),
  };
}

/** Polls `check` until it is true or `timeoutMs` passes (then throws with `what`). */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
