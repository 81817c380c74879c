import { KNOWN_ROUTES, MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browserLocation } from '../lib/browser-location';
import { buildPreferences, buildUser, sessionHandlers, signedOutHandlers } from '../test/builders';
import { errorBody, fakeApi } from '../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../test/render';
import { APP_ROUTES, SCREEN_ROUTES } from './routes';

const renderApp = (path: string) => renderRoutes(APP_ROUTES, path);
const mainMenu = () => screen.findByRole('navigation', { name: 'Main menu' }, { timeout: 8_000 });
// The study lists at '/' and '/status' are a lazy chunk of their own, slow to load in jsdom on a busy
// machine: the stories that land on them get more time.
const LIST_SCREEN = { timeout: 15_000 };
const LIST_WAIT = { timeout: 8_000 };

beforeEach(() => simulateWideScreen());

describe('routes', () => {
  it('has a screen for every route of spec-core §2 and spec-lab §2', () => {
    const paths = SCREEN_ROUTES.map((r) => r.path);
    for (const known of KNOWN_ROUTES) expect(paths).toContain(known);
  });
});

describe('session and route guard', LIST_SCREEN, () => {
  it('sends a signed-out visitor to the login page', async () => {
    fakeApi(signedOutHandlers);
    renderApp('/summary');
    expect(await screen.findByLabelText('Mobile number or e-mail')).toBeTruthy();
    expect(window.location.pathname).toBe('/login-page');
  });

  it('lets a signed-out visitor read a public page', async () => {
    fakeApi(signedOutHandlers);
    renderApp('/info-page?page=privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
  });

  it('sends a signed-in user off a path outside their menu to their first allowed path', async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'])));
    renderApp('/audit-logins');
    expect(await screen.findByRole('heading', { level: 1, name: 'Study list' }, LIST_WAIT)).toBeTruthy();
    expect(window.location.pathname).toBe('/');
    expect(await screen.findByRole('tablist', { name: 'Study list tabs' })).toBeTruthy();
  });

  it('resolves /user/get-route to the first allowed path', async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_ADMIN_BILLER'])));
    renderApp('/user/get-route');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Billing' })).toBeTruthy();
    expect(window.location.pathname).toBe('/admin-page/billing');
  });

  it("shows 'Not found' for an unknown path", async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'])));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: MESSAGES.notFound })).toBeTruthy();
  });

  it('leaves a login-page visit for another user alone', async () => {
    const user = buildUser(['ROLE_DOCTOR']);
    fakeApi(sessionHandlers(user));
    renderApp('/login-page/someone-else@demo.local');
    const field = (await screen.findByLabelText('Mobile number or e-mail')) as HTMLInputElement;
    expect(field.value).toBe('someone-else@demo.local');
  });

  it('treats a failing preference call as signed out', async () => {
    const user = buildUser(['ROLE_DOCTOR']);
    fakeApi({ ...sessionHandlers(user), 'GET /api/user/preference': { status: 500, text: 'boom' } });
    renderApp('/');
    expect(await screen.findByLabelText('Mobile number or e-mail')).toBeTruthy();
  });

  it("skips preferences and mapping for an assignor, asking for the group's switches alone", async () => {
    const user = buildUser(['ROLE_ASSIGNOR']);
    const prefs = buildPreferences((p) => {
      p.GROUP_SWITCHES.showSubscriptionWarning = true;
    });
    const api = fakeApi(sessionHandlers(user, prefs));
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Study list' }, LIST_WAIT)).toBeTruthy();
    expect(api.calls('GET', '/api/user/preference')).toHaveLength(0);
    expect(api.calls('GET', '/api/user/mapping')).toHaveLength(0);
    // The group's switch reaches the assignor's screens: the subscription banner shows.
    expect(await screen.findByText(/Your subscription has expired/)).toBeTruthy();
  });
});

describe('app domain (spec-core §4 Session)', () => {
  it('logs out and goes to the group app domain when it differs from this host', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const prefs = buildPreferences((p) => {
      p.ADMIN_PREFERENCES.appDomain = 'reports.example.org';
    });
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR']), prefs),
      'POST /api/do-logout': { body: { ok: true } },
    });
    renderApp('/');
    expect(await screen.findByText('Redirecting reports.example.org')).toBeTruthy();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://reports.example.org/login-page'));
    expect(api.calls('POST', '/api/do-logout')).toHaveLength(1);
  });
});

describe('shell', LIST_SCREEN, () => {
  it("shows the group's menu as links, by section, with the tools and copyright", async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_GROUP'])));
    renderApp('/audit-logins');
    const nav = await mainMenu();
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual([
      'Manage preference',
      'Audit Logins',
      'Manage centers',
      'Manage users',
      // The group's owner runs its tele billing too (tele-billing DECISIONS "The group admin").
      'Manage Tele Pricing',
      'Manage Tele Invoice',
      'Radiologist payouts',
      // The payers' invoice pages come last (core menus.ts, INVOICE_PAYER_ROLES).
      'Radflow invoices',
    ]);
    expect(within(nav).getByRole('link', { name: 'Audit Logins' }).getAttribute('href')).toBe(
      '/audit-logins',
    );
    for (const tool of ['Support Videos', 'Keyboard Shortcut', 'Voice support', 'New Launch']) {
      expect(within(nav).getByRole('button', { name: tool })).toBeTruthy();
    }
    expect(within(nav).queryByRole('button', { name: 'Create Study' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Download router' })).toBeNull();
    expect(within(nav).getByText('© 2026 Radflow')).toBeTruthy();
  });

  it('offers a center Create Study and Download router, and the notification bell', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_CENTER'])), 'GET /api/centers': { body: [] } });
    renderApp('/status');
    const nav = await mainMenu();
    expect(within(nav).getByRole('button', { name: 'Create Study' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Download router' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();

    fireEvent.click(within(nav).getByRole('button', { name: 'Create Study' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Study' }, LIST_WAIT);
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('lists the viewer shortcuts with the window presets', async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'])));
    renderApp('/');
    fireEvent.click(within(await mainMenu()).getByRole('button', { name: 'Keyboard Shortcut' }));
    const table = await screen.findByRole('table', { name: 'Viewer keyboard shortcuts' });
    expect(table.textContent).toContain('Lung (W 1500 / L -600)');
    expect(table.textContent).toContain('Brain Infract (W 40 / L 40)');
    expect(table.textContent).toContain('Ellipse');
  });

  it('shows identity in the account menu and logs out to the login page', async () => {
    const user = buildUser(['ROLE_DOCTOR']);
    const api = fakeApi({
      ...sessionHandlers(user),
      'POST /api/do-logout': { body: { ok: true } },
    });
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Account' }));
    const menu = await screen.findByRole('menu');
    expect(menu.textContent).toContain(user.identifier);
    expect(menu.textContent).toContain(user.email);
    expect(within(menu).getByRole('menuitem', { name: 'Hard Refresh' })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Update Password' })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'API tokens' })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByLabelText('Mobile number or e-mail')).toBeTruthy();
    expect(api.calls('POST', '/api/do-logout')).toHaveLength(1);
  });

  it("gives the viewer 'Stop viewing' and hides identifier and email", async () => {
    const user = buildUser(['ROLE_VIEWER']);
    fakeApi(sessionHandlers(user));
    renderApp('/share');
    fireEvent.click(await screen.findByRole('button', { name: 'Account' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Stop viewing' })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: 'Logout' })).toBeNull();
    // Viewers hold no API token (core canUseApiToken).
    expect(within(menu).queryByRole('menuitem', { name: 'API tokens' })).toBeNull();
    expect(menu.textContent).not.toContain(user.email);
    expect(menu.textContent).not.toContain(user.identifier);
  });

  it('shows the subscription banner when the group switch is on', async () => {
    const prefs = buildPreferences((p) => {
      p.GROUP_SWITCHES.showSubscriptionWarning = true;
    });
    fakeApi(sessionHandlers(buildUser(['ROLE_CENTER']), prefs));
    renderApp('/status');
    expect(await screen.findByText(MESSAGES.subscriptionWarning)).toBeTruthy();
  });

  it('links the footer to the information pages', async () => {
    fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'])));
    renderApp('/');
    const footer = (await screen.findAllByRole('contentinfo'))[0]!;
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      '/info-page?page=terms',
      '/info-page?page=privacy',
      '/info-page?page=contact',
      '/info-page?page=refund',
    ]);
  });
});

describe('403 and 401 handling (spec-core §8)', () => {
  it("answers another 403 with 'Please login again' and the login page", async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'])),
      'POST /api/user/audit/search': { status: 403, body: errorBody(403, 'Forbidden') },
    });
    renderApp('/audit-logins');
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.pleaseLoginAgain);
    expect(await screen.findByLabelText('Mobile number or e-mail')).toBeTruthy();
  });

  it('answers a 403 5002 with the approval dialog, then logs out and reloads', async () => {
    const reload = vi.spyOn(browserLocation, 'reload').mockImplementation(() => undefined);
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'])),
      'POST /api/user/audit/search': { status: 403, body: errorBody(5002, 'Device not approved') },
      'POST /api/do-logout': { body: { ok: true } },
    });
    renderApp('/audit-logins');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(MESSAGES.loginNeedsApproval);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(api.calls('POST', '/api/do-logout')).toHaveLength(1);
  });

  it('sends an expired session (401) to the login page', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'])),
      'POST /api/user/audit/search': { status: 401, body: errorBody(401, 'Session expired') },
    });
    renderApp('/audit-logins');
    expect(await screen.findByLabelText('Mobile number or e-mail')).toBeTruthy();
  });
});
