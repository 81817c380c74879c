import { BRAND_MESSAGES, PRODUCT_NAME, ROUTER_SERVED_META, type TBrand } from '@radflow/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../app/routes';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, renderScreen, simulateWideScreen } from '../../test/render';
import { LoginPage } from '../auth/LoginPage';
import { SharePage } from '../share-page/SharePage';
import { BrandLogo } from './BrandLogo';
import { BRAND_PATH } from './brand-api';
import { BRAND_TEXTS } from './BrandSettings';

/*
 * issue 29 §8: a group's own product name and logo (spec-core §7 brand assets path) on the sign-in
 * page, the top bar and the share page; the group admin sets them in the group settings.
 */

const SUNRISE: TBrand = {
  productName: 'Sunrise Imaging',
  logoUrl: '/api/assets/0123456789abcdef0123456789abcdef',
  isCustom: true,
};
const SLOW = { timeout: 15_000 };

beforeEach(() => simulateWideScreen());

describe('the brand a page shows', () => {
  afterEach(() => document.head.querySelector(`meta[name="${ROUTER_SERVED_META.name}"]`)?.remove());

  it("the page the center's router serves shows the product's own, asking the router nothing", async () => {
    // The router answers no brand call (it would be a 404 in the page's error log).
    const meta = document.createElement('meta');
    meta.name = ROUTER_SERVED_META.name;
    meta.content = ROUTER_SERVED_META.content;
    document.head.append(meta);
    const api = fakeApi({ [`GET ${BRAND_PATH}`]: { body: SUNRISE } });
    renderScreen(<BrandLogo />, { path: '/hybrid-study-list' });
    expect(await screen.findByText(PRODUCT_NAME)).toBeTruthy();
    // The effects that would ask have run: a call would be recorded by now.
    await act(async () => undefined);
    expect(api.calls('GET', BRAND_PATH)).toHaveLength(0);
  });

  it("the sign-in page shows the address's group name and logo, asked without a share link", async () => {
    const api = fakeApi({ [`GET ${BRAND_PATH}`]: { body: SUNRISE } });
    renderScreen(<LoginPage />, { path: '/login-page' });
    expect(await screen.findByText('Sunrise Imaging')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Sunrise Imaging logo' }).getAttribute('src')).toBe(
      SUNRISE.logoUrl,
    );
    expect(api.calls('GET', BRAND_PATH)[0]?.query.get('shareLink')).toBeNull();
  });

  it("the sign-in page shows the product's own when the server has no brand for it", async () => {
    const api = fakeApi({ [`GET ${BRAND_PATH}`]: { status: 500, body: errorBody(500, 'boom') } });
    renderScreen(<LoginPage />, { path: '/login-page' });
    await waitFor(() => expect(api.calls('GET', BRAND_PATH)).toHaveLength(1));
    expect(screen.getByText(PRODUCT_NAME)).toBeTruthy();
    expect(screen.getByRole('img', { name: `${PRODUCT_NAME} logo` })).toBeTruthy();
  });

  it("the share page asks by its link and shows the shared study's group brand", async () => {
    const link = 'tok_ABCDEFGHIJKLMNOPQRSTUVWX';
    const api = fakeApi({
      [`GET ${BRAND_PATH}`]: (r: TRecordedRequest) => ({
        body:
          r.query.get('shareLink') === link
            ? SUNRISE
            : { productName: PRODUCT_NAME, logoUrl: null, isCustom: false },
      }),
      [`GET /api/share/${link}`]: { status: 404, body: errorBody(404, 'Not found') },
    });
    renderScreen(<SharePage />, { path: `/share?link=${link}`, route: '/share' });
    const header = await screen.findByRole('banner');
    expect(await within(header).findByText('Sunrise Imaging')).toBeTruthy();
    expect(api.calls('GET', BRAND_PATH)[0]?.query.get('shareLink')).toBe(link);
  });

  it('the top bar and the tab title of a signed-in user show their group brand', SLOW, async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN_BILLER'])),
      [`GET ${BRAND_PATH}`]: { body: SUNRISE },
    });
    renderRoutes(APP_ROUTES, '/user/get-route');
    const bar = await screen.findByRole('banner', {}, SLOW);
    expect(await within(bar).findByText('Sunrise Imaging', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(document.title).toContain('Sunrise Imaging'), SLOW);
  });
});

describe('the group admin sets the brand', () => {
  it('saves the name and a logo as a form, then the top bar shows the new name', SLOW, async () => {
    let brand: TBrand = { productName: PRODUCT_NAME, logoUrl: null, isCustom: false };
    let sent: FormData | null = null;
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP']), buildPreferences()),
      'GET /api/setting/group-changes': { body: { content: [], totalElements: 0 } },
      [`GET ${BRAND_PATH}`]: () => ({ body: brand }),
      'POST /api/setting/brand': (r) => {
        sent = r.formData ?? null;
        brand = {
          productName: 'Sunrise Imaging',
          logoUrl: '/api/assets/ffffffffffffffffffffffffffffffff',
          isCustom: true,
        };
        return { body: brand };
      },
    });
    renderRoutes(APP_ROUTES, '/setting-page');
    fireEvent.click(await screen.findByRole('tab', { name: 'Group settings' }, SLOW));
    const section = await screen.findByRole('region', { name: BRAND_TEXTS.heading }, SLOW);
    fireEvent.change(within(section).getByLabelText(BRAND_TEXTS.name), {
      target: { value: ' Sunrise Imaging ' },
    });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    fireEvent.change(within(section).getByLabelText(BRAND_TEXTS.chooseLogo), { target: { files: [file] } });
    fireEvent.click(within(section).getByRole('button', { name: BRAND_TEXTS.save }));

    expect(await screen.findByText(BRAND_MESSAGES.saved, {}, SLOW)).toBeTruthy();
    expect(sent!.get('productName')).toBe(' Sunrise Imaging ');
    expect((sent!.get('logo') as File).name).toBe('logo.png');
    const bar = screen.getByRole('banner');
    expect(within(bar).getByText('Sunrise Imaging')).toBeTruthy();
  });

  it('refuses a name over 60 characters before sending it', SLOW, async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP']), buildPreferences()),
      'GET /api/setting/group-changes': { body: { content: [], totalElements: 0 } },
    });
    renderRoutes(APP_ROUTES, '/setting-page');
    fireEvent.click(await screen.findByRole('tab', { name: 'Group settings' }, SLOW));
    const section = await screen.findByRole('region', { name: BRAND_TEXTS.heading }, SLOW);
    fireEvent.change(within(section).getByLabelText(BRAND_TEXTS.name), { target: { value: 'x'.repeat(61) } });
    fireEvent.click(within(section).getByRole('button', { name: BRAND_TEXTS.save }));
    expect(await within(section).findByText(BRAND_MESSAGES.productNameTooLong)).toBeTruthy();
    expect(api.calls('POST', '/api/setting/brand')).toHaveLength(0);
  });
});
