import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES, SETTING_ASSET_MAX_BYTES, SETTING_ASSET_MESSAGES as M } from '@radflow/core';
import { type TSignedInApp, TestClient, signedInApp } from '../../../test/test-app.js';
import {
  GIF,
  JPEG,
  PNG,
  TEXT,
  pngOfSize,
  postForm,
  storedAssets,
} from '../../../test/setting-assets.helpers.js';

/**
 * POST /api/setting/upload-assets/ and GET /api/assets/{id} (issue 6 contract): png or jpeg by the
 * bytes, at most 2 MiB, kept in the blob store and served without a session.
 */

let t: TSignedInApp;
let users: Awaited<ReturnType<typeof createUsers>>;

/** The center user (signed in by signedInApp) and group users of the roles the cases need. */
async function createUsers() {
  const as = async (roles: Parameters<TSignedInApp['signIn']>[0]) => (await t.signIn(roles)).browser;
  return {
    center: t.browser,
    doctor: await as(['ROLE_DOCTOR']),
    biller: await as(['ROLE_BILLER']),
    typist: await as(['ROLE_TYPIST']),
    assignor: await as(['ROLE_ASSIGNOR']),
  };
}

beforeAll(async () => {
  t = await signedInApp({ roles: ['ROLE_CENTER'] });
  users = await createUsers();
});
afterAll(() => t.close());

const upload = (browser: TestClient, assetType: string, bytes: Uint8Array, contentType = 'image/png') =>
  postForm(browser, '/api/setting/upload-assets/', { assetType }, [{ field: 'file', bytes, contentType }]);

/** A browser with no session at all (a report opened from a share link). */
const anonymous = () => new TestClient(t.app);

describe('upload a settings image and read it back without a session', () => {
  it('a png header: answers its address; the address answers the same bytes with the contract headers', async () => {
    const res = await upload(users.center, 'REPORT_HEADER', PNG);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ publicS3ImageUrl: string; assetType: string }>();
    expect(body.assetType).toBe('REPORT_HEADER');
    expect(body.publicS3ImageUrl).toMatch(/^\/api\/assets\/[0-9a-f]{32}$/);

    const image = await anonymous().get(body.publicS3ImageUrl);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-length']).toBe(String(PNG.length));
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a jpeg center image (contact info) and a jpeg billing logo are accepted and served as jpeg', async () => {
    for (const [browser, assetType] of [
      [users.doctor, 'CENTER_IMAGE'],
      [users.biller, 'BILLING_LOGO'],
    ] as const) {
      const res = await upload(browser, assetType, JPEG, 'image/jpeg');
      expect(res.statusCode, res.body).toBe(200);
      const image = await anonymous().get(res.json<{ publicS3ImageUrl: string }>().publicS3ImageUrl);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.equals(JPEG)).toBe(true);
    }
  });

  it('exactly 2 MiB is accepted', async () => {
    const res = await upload(users.center, 'SIGNATURE', pngOfSize(SETTING_ASSET_MAX_BYTES));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a trailing slash-less path works too (the web may send either)', async () => {
    const res = await postForm(users.doctor, '/api/setting/upload-assets', { assetType: 'SIGNATURE' }, [
      { field: 'file', bytes: PNG },
    ]);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('refused uploads answer 4xx and store nothing', () => {
  it.each([
    ['a gif sent as image/png', 'CENTER_IMAGE', GIF, 415, M.imageType],
    ['a text file sent as image/png', 'CENTER_IMAGE', TEXT, 415, M.imageType],
    ['a jpeg header (png only)', 'REPORT_HEADER', JPEG, 415, M.imagePngOnly],
    ['an empty file', 'CENTER_IMAGE', Buffer.alloc(0), 415, M.imageType],
    ['2 MiB + 1 byte', 'CENTER_IMAGE', pngOfSize(SETTING_ASSET_MAX_BYTES + 1), 413, M.imageTooLarge],
    ['an unknown asset type', 'AVATAR', PNG, 400, M.assetTypeInvalid],
  ])('%s', async (_name, assetType, bytes, status, message) => {
    const before = await storedAssets(t);
    const browser = assetType === 'REPORT_HEADER' ? users.center : users.doctor;
    const res = await upload(browser, assetType, bytes);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ errorStatusCode: status, errorDescription: message });
    expect(await storedAssets(t)).toEqual(before);
  });

  it('no file part: 400 naming the file', async () => {
    const res = await postForm(users.doctor, '/api/setting/upload-assets/', { assetType: 'CENTER_IMAGE' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: M.imageRequired, additionalInfo: 'file' });
  });

  it('a JSON body instead of a form: 415', async () => {
    const res = await users.doctor.post('/api/setting/upload-assets/', { assetType: 'CENTER_IMAGE' });
    expect(res.statusCode).toBe(415);
  });

  it('roles without a settings entry get 403 (typist, assignor); without the type’s entry too', async () => {
    const before = await storedAssets(t);
    for (const browser of [users.typist, users.assignor]) {
      const res = await upload(browser, 'CENTER_IMAGE', PNG);
      expect(res.statusCode).toBe(403);
    }
    // A doctor has no PDF_MARGINS entry, so no header; a biller no signature.
    const header = await upload(users.doctor, 'REPORT_HEADER', PNG);
    expect(header.statusCode).toBe(403);
    expect(header.json()).toMatchObject({ errorDescription: SETTINGS_MESSAGES.notAllowed });
    expect((await upload(users.biller, 'SIGNATURE', PNG)).statusCode).toBe(403);
    expect(await storedAssets(t)).toEqual(before);
  });

  it('without a session: 401', async () => {
    expect((await upload(anonymous(), 'CENTER_IMAGE', PNG)).statusCode).toBe(401);
  });
});

describe('GET /api/assets/{id}', () => {
  it('an unknown id and an id of another shape answer 404', async () => {
    for (const id of [
      '0123456789abcdef0123456789abcdef',
      'not-an-id',
      '0123456789ABCDEF0123456789ABCDEF',
      '..%2F..%2Fetc',
    ]) {
      const res = await anonymous().get(`/api/assets/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ errorStatusCode: 404 });
    }
  });
});

describe('OpenAPI', () => {
  it('documents the settings image, signature, layout and lab prefix calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json<{ paths: Record<string, unknown> }>().paths;
    for (const p of [
      '/api/setting/upload-assets',
      '/api/assets/{id}',
      '/api/metadata/sign',
      '/api/metadata/upload',
      '/api/center-setting',
      '/api/center-setting/update',
      '/api/lab/get-prefix',
      '/api/lab/add-prefix',
    ]) {
      expect(paths, p).toHaveProperty([p]);
    }
  });
});
