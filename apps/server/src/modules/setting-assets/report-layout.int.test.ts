import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TCenterSettingResponse,
  type TRole,
  SETTING_ASSET_MAX_BYTES,
  SETTING_ASSET_MESSAGES as M,
} from '@radflow/core';
import { reportLayouts } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  TestClient as Browser,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import {
  JPEG,
  PNG,
  type TFormFile,
  pngOfSize,
  postForm,
  storedAssets,
} from '../../../test/setting-assets.helpers.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * GET /api/center-setting/ and POST /api/center-setting/update/ (spec-lab §3 PDF margins, §5 step
 * 0.01, top and bottom required, header and footer png only, §9 defaults 4/3/3/3; issue 6 contract):
 * one layout per center for its center users, per group for group admins, else per user.
 */

let t: TestApp;
let groupId: number;
let centerId: number;
beforeAll(async () => {
  t = await createTestApp();
  groupId = (await createTestGroup(t.db)).id;
  centerId = (await createTestCenter(t.db, { groupId })).id;
});
afterAll(() => t.close());

const DEFAULTS: TCenterSettingResponse = {
  pdfMarginTop: 4,
  pdfMarginBottom: 3,
  pdfMarginLeft: 3,
  pdfMarginRight: 3,
  headerImageUrl: null,
  footerImageUrl: null,
};

const as = async (roles: TRole[], center: number | null = centerId) =>
  (
    await signedIn(t, {
      roles,
      groupId,
      centerId: roles.some((r) => r.startsWith('ROLE_CENTER')) ? center : null,
    })
  ).browser;

const update = (browser: TestClient, fields: Record<string, string>, files: TFormFile[] = []) =>
  postForm(browser, '/api/center-setting/update/', fields, files);
const read = async (browser: TestClient) => {
  const res = await browser.get('/api/center-setting/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TCenterSettingResponse>();
};
const margins = {
  pdf_margin_top: '2.5',
  pdf_margin_bottom: '1.25',
  pdf_margin_left: '1',
  pdf_margin_right: '0.75',
};

describe('page layout round trip', () => {
  it('a center with none reads the spec defaults', async () => {
    expect(await read(await as(['ROLE_CENTER'], (await createTestCenter(t.db, { groupId })).id))).toEqual(
      DEFAULTS,
    );
  });

  it('margins + png header and footer are kept, answered as numbers, and the images served without a session', async () => {
    const centerUser = await as(['ROLE_CENTER']);
    const res = await update(centerUser, margins, [
      { field: 'header', bytes: PNG },
      { field: 'footer', bytes: PNG, contentType: 'application/octet-stream' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<TCenterSettingResponse>();
    expect(saved).toMatchObject({
      pdfMarginTop: 2.5,
      pdfMarginBottom: 1.25,
      pdfMarginLeft: 1,
      pdfMarginRight: 0.75,
    });
    expect(saved.headerImageUrl).toMatch(/^\/api\/assets\/[0-9a-f]{32}$/);
    expect(saved.footerImageUrl).toMatch(/^\/api\/assets\/[0-9a-f]{32}$/);
    expect(saved.footerImageUrl).not.toBe(saved.headerImageUrl);
    expect(await read(centerUser)).toEqual(saved);
    const header = await new Browser(t.app).get(saved.headerImageUrl ?? '');
    expect(header.statusCode).toBe(200);
    expect(header.rawPayload.equals(PNG)).toBe(true);

    // A second user of the same center sees (and edits) the same layout.
    const colleague = await as(['ROLE_CENTER']);
    expect(await read(colleague)).toEqual(saved);
    // Left and right left out keep theirs; images not sent stay.
    const second = await update(colleague, { pdf_margin_top: '3', pdf_margin_bottom: '2' });
    expect(second.statusCode, second.body).toBe(200);
    expect(await read(centerUser)).toEqual({ ...saved, pdfMarginTop: 3, pdfMarginBottom: 2 });

    // Another center's user is not affected.
    expect(await read(await as(['ROLE_CENTER'], (await createTestCenter(t.db, { groupId })).id))).toEqual(
      DEFAULTS,
    );
  });

  it('removeHeader clears the header but its image stays served (old reports point at it)', async () => {
    const centerUser = await as(['ROLE_CENTER'], (await createTestCenter(t.db, { groupId })).id);
    const saved = (
      await update(centerUser, margins, [{ field: 'header', bytes: PNG }])
    ).json<TCenterSettingResponse>();
    const res = await update(centerUser, { ...margins, removeHeader: 'true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ headerImageUrl: null, footerImageUrl: null, pdfMarginTop: 2.5 });
    expect((await new Browser(t.app).get(saved.headerImageUrl ?? '')).statusCode).toBe(200);
  });

  it('a group admin keeps the group layout; a center customer their own', async () => {
    const group = await as(['ROLE_GROUP']);
    expect((await update(group, { pdf_margin_top: '5', pdf_margin_bottom: '5' })).statusCode).toBe(200);
    expect(await read(await as(['ROLE_GROUP']))).toMatchObject({
      pdfMarginTop: 5,
      pdfMarginBottom: 5,
      pdfMarginLeft: 3,
    });
    const customer = await as(['ROLE_CENTER_CUSTOMER']);
    expect(await read(customer)).toEqual(DEFAULTS);
    expect((await update(customer, { pdf_margin_top: '0', pdf_margin_bottom: '10' })).statusCode).toBe(200);
    expect(await read(customer)).toMatchObject({ pdfMarginTop: 0, pdfMarginBottom: 10 });
    expect(await read(await as(['ROLE_CENTER_CUSTOMER']))).toEqual(DEFAULTS);
  });
});

describe('refused saves answer 4xx and change nothing', () => {
  let centerUser: TestClient;
  let stored: TCenterSettingResponse;
  beforeAll(async () => {
    centerUser = await as(['ROLE_CENTER'], (await createTestCenter(t.db, { groupId })).id);
    stored = (
      await update(centerUser, margins, [{ field: 'header', bytes: PNG }])
    ).json<TCenterSettingResponse>();
  });

  const { pdf_margin_bottom: _bottom, ...withoutBottom } = margins;
  it.each([
    ['bottom missing', withoutBottom, [], 400, M.marginBottomRequired, 'pdf_margin_bottom'],
    ['top blank', { ...margins, pdf_margin_top: ' ' }, [], 400, M.marginTopRequired, 'pdf_margin_top'],
    ['three decimals', { ...margins, pdf_margin_left: '1.005' }, [], 400, M.marginStep, 'pdf_margin_left'],
    ['negative', { ...margins, pdf_margin_right: '-1' }, [], 400, M.marginNegative, 'pdf_margin_right'],
    ['over 10 cm', { ...margins, pdf_margin_top: '10.5' }, [], 400, M.marginTooLarge, 'pdf_margin_top'],
    ['not a number', { ...margins, pdf_margin_top: '2cm' }, [], 400, M.marginInvalid, 'pdf_margin_top'],
    [
      'a jpeg header',
      margins,
      [{ field: 'header', bytes: JPEG, contentType: 'image/png' }],
      415,
      M.imagePngOnly,
      'header',
    ],
    ['a jpeg footer', margins, [{ field: 'footer', bytes: JPEG }], 415, M.imagePngOnly, 'footer'],
    [
      'a png header of 2 MiB + 1 byte',
      margins,
      [{ field: 'header', bytes: pngOfSize(SETTING_ASSET_MAX_BYTES + 1) }],
      413,
      M.imageTooLarge,
      'header',
    ],
    [
      'bad margins with a good image',
      withoutBottom,
      [{ field: 'footer', bytes: PNG }],
      400,
      M.marginBottomRequired,
      'pdf_margin_bottom',
    ],
  ] as const)('%s', async (_name, fields, files, status, message, field) => {
    const before = await storedAssets(t);
    const res = await update(centerUser, fields, [...files]);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ errorDescription: message, additionalInfo: field });
    expect(await read(centerUser)).toEqual(stored);
    expect(await storedAssets(t)).toEqual(before);
  });

  it('roles without PDF_MARGINS get 403 on both calls (doctor, typist, assignor)', async () => {
    const rows = await t.db.select().from(reportLayouts);
    for (const roles of [['ROLE_DOCTOR'], ['ROLE_TYPIST'], ['ROLE_ASSIGNOR']] as TRole[][]) {
      const browser = await as(roles);
      expect((await browser.get('/api/center-setting/')).statusCode, roles[0]).toBe(403);
      expect((await update(browser, margins)).statusCode, roles[0]).toBe(403);
    }
    expect(await t.db.select().from(reportLayouts)).toEqual(rows);
  });
});
