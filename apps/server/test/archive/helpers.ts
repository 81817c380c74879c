import { type DicomServices, startDicomServices } from '../../src/modules/archive/dicom-services.js';
import type { TRole } from '@radflow/core';
import { type TestApp, createTestCenter, createTestGroup, signIn as signInUser } from '../test-app.js';
import { setAeTitles } from './fixtures.js';

/** A STOW-RS body: one application/dicom part per buffer. */
export function stowBody(parts: Uint8Array[], boundary = `stow-${Math.random().toString(36).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
      Buffer.from(part),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  };
}

/** A multipart/form-data body with fields first, then files. */
export function formBody(fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }>) {
  const boundary = `form-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A group with two centers, and signed-in users: a center user of center A, a group admin, a doctor. */
export async function createArchiveWorld(t: TestApp) {
  const group = await createTestGroup(t.db);
  const centerA = await createTestCenter(t.db, { groupId: group.id });
  const centerB = await createTestCenter(t.db, { groupId: group.id });
  const signIn = async (roles: TRole[], centerId: number | null) => {
    const { user, browser } = await signInUser(t, { roles, groupId: group.id, centerId });
    return { user, client: browser };
  };
  return {
    group,
    centerA,
    centerB,
    center: await signIn(['ROLE_CENTER'], centerA.id),
    admin: await signIn(['ROLE_ADMIN'], null),
    doctor: await signIn(['ROLE_DOCTOR'], null),
  };
}

/**
 * An archive world whose centers A and B each have a calling AE title of their own (unique per
 * call), for tests that send through the DICOM port.
 */
export async function createArchiveWorldWithAeTitles(t: TestApp) {
  const world = await createArchiveWorld(t);
  const suffix = Math.random().toString(36).slice(2, 8).toUpperCase();
  const aeA = `A${suffix}`;
  const aeB = `B${suffix}`;
  await setAeTitles(t.db, world.centerA.id, [aeA]);
  await setAeTitles(t.db, world.centerB.id, [aeB]);
  return { ...world, aeA, aeB };
}

/** The AE title our DICOM port answers to in the tests. */
export const TEST_CALLED_AET = 'RADFLOW';

/** The app's DICOM port on a free local port, as the tests send to it. */
export function startTestDicomPort(t: TestApp): Promise<DicomServices> {
  return startDicomServices(t.app.ctx, { DICOM_PORT: 0, DICOM_AET: TEST_CALLED_AET, HOST: '127.0.0.1' });
}
