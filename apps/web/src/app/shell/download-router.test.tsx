import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../../test/render';
import { APP_ROUTES } from '../routes';

const SHA = 'ab'.repeat(32);

beforeEach(() => simulateWideScreen());

describe("the drawer's Download router (issue 27 §5)", () => {
  it("shows each platform's build with its download link and SHA-256, or why there is none", async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_CENTER'])),
      'GET /api/centers': { body: [] },
      'GET /api/router/latest': (request) =>
        request.query.get('platform') === 'linux'
          ? {
              body: {
                version: '1.4.0',
                platform: 'linux',
                sha256: SHA,
                size: 250_000,
                manifest: '{}',
                signature: 'c2ln',
                url: '/api/router/download?platform=linux',
              },
            }
          : { status: 404, body: errorBody(404, 'No router release is available for windows.') },
    });
    renderRoutes(APP_ROUTES, '/status');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' }, { timeout: 8_000 });
    fireEvent.click(within(nav).getByRole('button', { name: 'Download router' }));

    const dialog = await screen.findByRole('dialog', {}, { timeout: 8_000 });
    const link = await within(dialog).findByRole('link', { name: 'Download version 1.4.0 (245 KB)' });
    expect(link.getAttribute('href')).toBe('/api/router/download?platform=linux');
    expect(within(dialog).getByText(`SHA-256: ${SHA}`)).toBeTruthy();
    expect(within(dialog).getByText(/^No router release is available for windows\. \(code 404/)).toBeTruthy();
    expect(
      api.requests.filter((r) => r.path === '/api/router/latest').map((r) => r.query.get('platform')),
    ).toEqual(['linux', 'windows']);
  });
});
