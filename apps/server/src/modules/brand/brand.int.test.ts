import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { BRAND_MESSAGES, PRODUCT_NAME, SETTING_ASSET_MAX_BYTES, type TBrand } from '@radflow/core';
import { settingChanges, reportStatuses, studies } from '../../db/schema.js';
import { docxEntry } from '../../../test/documents.js';
import { reportingCalls, saved } from '../../../test/reporting.fixtures.js';
import { GIF, PNG, pngOfSize, postForm, storedAssets } from '../../../test/setting-assets.helpers.js';
import { shareBuilders } from '../../../test/share.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, TestClient, createTestApp, setGroupPreference } from '../../../test/test-app.js';

/*
 * issue 29 §8: a group's own product name and logo (spec-core §7 brand assets path). The group admin
 * sets them; the sign-in page of the group's address, its signed-in pages, its share pages and its
 * report documents show them; another group's pages never do.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
const { lock, signOff } = reportingCalls(() => t);
const share = shareBuilders(() => t);

const saveBrand = (browser: TestClient, fields: Record<string, string>, logo?: Uint8Array) =>
  postForm(
    browser,
    '/api/setting/brand',
    fields,
    logo ? [{ field: 'logo', bytes: logo, contentType: 'image/png' }] : [],
  );

/** The brand a page at `host` asks for with no session. */
const brandAt = async (host: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/brand-assets${query}`, headers: { host } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TBrand>();
};

describe('a group sets its own product name and logo', () => {
  it('the group admin saves name and logo; the sign-in page of its address, its users and the logo address show them', async () => {
    const world = await createWorld();
    await setGroupPreference(t.db, world.group.id, 'ADMIN_PREFERENCES', {
      appDomain: 'https://reports.sunrise.test',
    });
    const { browser: admin } = await signIn(world, ['ROLE_GROUP']);

    const res = await saveBrand(admin, { productName: '  Sunrise Imaging  ' }, PNG);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<TBrand>();
    expect(saved.productName).toBe('Sunrise Imaging');
    expect(saved.logoUrl).toMatch(/^\/api\/assets\/[0-9a-f]{32}$/);
    expect(saved.isCustom).toBe(true);

    // Before sign-in the page knows only its address.
    expect(await brandAt('reports.sunrise.test')).toEqual(saved);
    // Another address: the product's own.
    expect(await brandAt('elsewhere.test')).toEqual({
      productName: PRODUCT_NAME,
      logoUrl: null,
      isCustom: false,
    });
    // A signed-in user of the group, wherever the page is.
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const own = await center.get('/api/brand-assets');
    expect(own.json<TBrand>()).toEqual(saved);
    // The logo is served without a session, as stored.
    const logo = await new TestClient(t.app).get(saved.logoUrl!);
    expect(logo.statusCode).toBe(200);
    expect(logo.rawPayload.equals(PNG)).toBe(true);

    // The change is in the group's audit.
    const audit = await t.db
      .select()
      .from(settingChanges)
      .where(and(eq(settingChanges.groupId, world.group.id), eq(settingChanges.section, 'BRAND')));
    expect(audit.map((a) => a.field).sort()).toEqual(['brandLogoAssetId', 'brandProductName']);
  });

  it("another group's users never see it; an empty name and removeLogo go back to the product's own", async () => {
    const mine = await createWorld();
    const other = await createWorld();
    const { browser: admin } = await signIn(mine, ['ROLE_ADMIN']);
    expect((await saveBrand(admin, { productName: 'Mine' }, PNG)).statusCode).toBe(200);

    const { browser: stranger } = await signIn(other, ['ROLE_DOCTOR']);
    expect((await stranger.get('/api/brand-assets')).json<TBrand>().productName).toBe(PRODUCT_NAME);

    // A name-only save keeps the logo.
    const renamed = (await saveBrand(admin, { productName: 'Mine Two' })).json<TBrand>();
    expect(renamed.productName).toBe('Mine Two');
    expect(renamed.logoUrl).not.toBeNull();

    const reset = await saveBrand(admin, { productName: '', removeLogo: 'true' });
    expect(reset.json<TBrand>()).toEqual({ productName: PRODUCT_NAME, logoUrl: null, isCustom: false });
  });

  it('refuses a bad logo or name with a clear 4xx and stores nothing; only group admins may save', async () => {
    const world = await createWorld();
    const { browser: admin } = await signIn(world, ['ROLE_GROUP']);
    const before = await storedAssets(t);

    const gif = await saveBrand(admin, { productName: 'X' }, GIF);
    expect(gif.statusCode).toBe(415);
    const big = await saveBrand(admin, { productName: 'X' }, pngOfSize(SETTING_ASSET_MAX_BYTES + 1));
    expect(big.statusCode).toBe(413);
    const long = await saveBrand(admin, { productName: 'x'.repeat(61) }, PNG);
    expect(long.statusCode).toBe(400);
    expect(long.json<{ errorDescription: string }>().errorDescription).toBe(
      BRAND_MESSAGES.productNameTooLong,
    );
    const markup = await saveBrand(admin, { productName: '<b>X</b>' });
    expect(markup.json<{ errorDescription: string }>().errorDescription).toBe(
      BRAND_MESSAGES.productNameInvalid,
    );
    expect(await storedAssets(t)).toEqual(before);
    expect((await admin.get('/api/brand-assets')).json<TBrand>().productName).toBe(PRODUCT_NAME);

    for (const roles of [['ROLE_CENTER'], ['ROLE_DOCTOR'], ['ROLE_ASSIGNOR']] as const) {
      const { browser } = await signIn(world, [...roles]);
      expect((await saveBrand(browser, { productName: 'Hijack' })).statusCode).toBe(403);
    }
    expect((await saveBrand(new TestClient(t.app), { productName: 'Hijack' })).statusCode).toBe(401);
  });

  it('two groups naming one address: the sign-in page shows neither', async () => {
    const a = await createWorld();
    const b = await createWorld();
    for (const w of [a, b]) {
      await setGroupPreference(t.db, w.group.id, 'ADMIN_PREFERENCES', { appDomain: 'shared.test' });
      const { browser } = await signIn(w, ['ROLE_GROUP']);
      await saveBrand(browser, { productName: `Group ${w.group.id}` });
    }
    expect((await brandAt('shared.test')).productName).toBe(PRODUCT_NAME);
  });
});

describe('the share page and the report documents carry the brand', () => {
  it("the share page of a study asks by its link and gets the study's group brand", async () => {
    const w = await share.world();
    const { row, token } = await share.sharedStudy(w);
    const { browser: admin } = await signIn(w, ['ROLE_GROUP']);
    await saveBrand(admin, { productName: 'Share Clinic' });
    expect((await brandAt('anywhere.test', `?shareLink=${token}`)).productName).toBe('Share Clinic');
    expect((await brandAt('anywhere.test', '?shareLink=not-a-real-link-000')).productName).toBe(PRODUCT_NAME);

    await share.signReport(w, row.id);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/share/${token}/report.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfCreator(pdf.rawPayload)).toBe('Share Clinic');
  });

  it("the report PDF and Word name the group's product as their creator", async () => {
    const world = await createWorld();
    const { browser: admin } = await signIn(world, ['ROLE_GROUP']);
    await saveBrand(admin, { productName: 'Sunrise Imaging' });
    const row = await createStudy(world, { status: 'HISTORY_CREATED', patientName: 'Asha Rao' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    saved(await signOff(doctor, row.id, { name: 'CT Head', content: '<p>Normal.</p>' }));
    const [s] = await t.db
      .select({ uid: studies.studyInstanceUid })
      .from(reportStatuses)
      .innerJoin(studies, eq(studies.id, reportStatuses.studyId))
      .where(eq(reportStatuses.id, row.id));
    const body = { uid: s!.uid, reportStatusId: row.id };
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);

    const pdf = await center.post('/api/pdf/download', body);
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(await pdfCreator(pdf.rawPayload)).toBe('Sunrise Imaging');
    const word = await center.post('/api/pdf/word', body);
    expect(await docxEntry(word.rawPayload, 'docProps/core.xml')).toContain(
      '<dc:creator>Sunrise Imaging</dc:creator>',
    );
  });
});

/** The PDF's Info Creator, as a PDF reader shows it. */
async function pdfCreator(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  try {
    const { info } = (await doc.getMetadata()) as { info: { Creator?: string } };
    return info.Creator ?? '';
  } finally {
    await doc.destroy();
  }
}
