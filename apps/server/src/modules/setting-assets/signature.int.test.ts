import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { type TRole, SETTING_ASSET_MAX_BYTES, SETTING_ASSET_MESSAGES as M } from '@radflow/core';
import { userSignatures } from '../../db/schema.js';
import { type TSignedInApp, type TestClient, signedInApp } from '../../../test/test-app.js';
import {
  GIF,
  JPEG,
  PNG,
  type TFormFile,
  pngOfSize,
  postForm,
  storedAssets,
} from '../../../test/setting-assets.helpers.js';

/**
 * GET /api/metadata/sign and POST /api/metadata/upload/ (spec-lab §3 signature, §5 footer text
 * required, §7; issue 6 contract): the footer text and the image round trip; a refused save changes
 * nothing.
 */

let t: TSignedInApp;
beforeAll(async () => {
  t = await signedInApp();
});
afterAll(() => t.close());

const as = (roles: TRole[]) => t.signIn(roles);

const save = (browser: TestClient, data: unknown, file?: TFormFile) =>
  postForm(
    browser,
    '/api/metadata/upload/',
    data === undefined ? {} : { data: typeof data === 'string' ? data : JSON.stringify(data) },
    file ? [file] : [],
  );
const read = async (browser: TestClient) => {
  const res = await browser.get('/api/metadata/sign');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ name: string; signature: string | null }>();
};
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('signature round trip', () => {
  it('a doctor with none reads an empty name and no image', async () => {
    const { browser } = await as(['ROLE_DOCTOR']);
    expect(await read(browser)).toEqual({ name: '', signature: null });
  });

  it('name + png are kept; name only keeps the image; a jpeg replaces it', async () => {
    const { browser } = await as(['ROLE_DOCTOR']);
    const first = await save(
      browser,
      { name: '  Dr A. Rao, MD (Radiology)  ' },
      { field: 'file', bytes: PNG },
    );
    expect(first.statusCode, first.body).toBe(200);
    const expected = { name: 'Dr A. Rao, MD (Radiology)', signature: dataUrl('image/png', PNG) };
    expect(first.json()).toEqual(expected);
    expect(await read(browser)).toEqual(expected);

    const renamed = await save(browser, { name: 'Dr A. Rao, DNB' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await read(browser)).toEqual({ name: 'Dr A. Rao, DNB', signature: dataUrl('image/png', PNG) });

    const jpeg = await save(
      browser,
      { name: 'Dr A. Rao, DNB' },
      { field: 'file', bytes: JPEG, contentType: 'image/jpeg' },
    );
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    expect(await read(browser)).toEqual({ name: 'Dr A. Rao, DNB', signature: dataUrl('image/jpeg', JPEG) });
  });

  it('a center user keeps a signature too; each user reads only their own', async () => {
    const center = await as(['ROLE_CENTER']);
    const other = await as(['ROLE_CENTER']);
    expect(
      (await save(center.browser, { name: 'Center Radiologist' }, { field: 'file', bytes: PNG })).statusCode,
    ).toBe(200);
    expect(await read(other.browser)).toEqual({ name: '', signature: null });
    expect((await read(center.browser)).name).toBe('Center Radiologist');
  });

  it('a name without ever an image answers signature null', async () => {
    const { browser } = await as(['ROLE_DOCTOR']);
    expect((await save(browser, { name: 'Text only' })).json()).toEqual({
      name: 'Text only',
      signature: null,
    });
  });
});

describe('refused saves answer 4xx and change nothing', () => {
  let doctor: Awaited<ReturnType<typeof as>>;
  let stored: { name: string; signature: string | null };
  beforeAll(async () => {
    doctor = await as(['ROLE_DOCTOR']);
    expect((await save(doctor.browser, { name: 'Dr Kept' }, { field: 'file', bytes: PNG })).statusCode).toBe(
      200,
    );
    stored = await read(doctor.browser);
  });

  it.each([
    ['a blank name', { name: '   ' }, undefined, 400, M.signatureNameRequired, 'data.name'],
    ['no name', {}, undefined, 400, M.signatureNameRequired, 'data.name'],
    ['no data part', undefined, undefined, 400, M.signatureNameRequired, 'data.name'],
    ['data that is not JSON', '{name:', undefined, 400, M.signatureDataInvalid, 'data'],
    [
      'a name of 201 characters',
      { name: 'x'.repeat(201) },
      undefined,
      400,
      M.signatureNameTooLong,
      'data.name',
    ],
    [
      'a blank name with a good image',
      { name: '' },
      { field: 'file', bytes: JPEG },
      400,
      M.signatureNameRequired,
      'data.name',
    ],
    ['a gif sent as image/png', { name: 'Dr New' }, { field: 'file', bytes: GIF }, 415, M.imageType, 'file'],
    [
      '2 MiB + 1 byte',
      { name: 'Dr New' },
      { field: 'file', bytes: pngOfSize(SETTING_ASSET_MAX_BYTES + 1) },
      413,
      M.imageTooLarge,
      'file',
    ],
  ] as const)('%s', async (_name, data, file, status, message, field) => {
    const before = await storedAssets(t);
    const res = await save(doctor.browser, data, file);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ errorDescription: message, additionalInfo: field });
    expect(await read(doctor.browser)).toEqual(stored);
    expect(await storedAssets(t)).toEqual(before);
  });

  it('roles without the SIGNATURE entry get 403 on both calls (typist, assignor, center customer)', async () => {
    for (const roles of [['ROLE_TYPIST'], ['ROLE_ASSIGNOR'], ['ROLE_CENTER_CUSTOMER']] as TRole[][]) {
      const { browser, user } = await as(roles);
      expect((await browser.get('/api/metadata/sign')).statusCode, roles[0]).toBe(403);
      expect(
        (await save(browser, { name: 'Nope' }, { field: 'file', bytes: PNG })).statusCode,
        roles[0],
      ).toBe(403);
      expect(await t.db.select().from(userSignatures).where(eq(userSignatures.userId, user.id))).toEqual([]);
    }
  });
});
