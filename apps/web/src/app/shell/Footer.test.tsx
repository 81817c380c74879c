import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { Footer } from './Footer';

describe('the footer', () => {
  it("shows the server's version to a signed-in user", async () => {
    fakeApi({ 'GET /api/settings/api-version': { body: { version: '3.4.5' } } });
    renderScreen(<Footer signedIn />);
    expect(await screen.findByText('Version 3.4.5')).toBeTruthy();
  });

  it('shows no version when the call fails, and nothing about the failure', async () => {
    const api = fakeApi({ 'GET /api/settings/api-version': { status: 500, body: {} } });
    renderScreen(<Footer signedIn />);
    await expect.poll(() => api.requests.length).toBe(1);
    expect(screen.queryByText(/^Version/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not ask for the version signed out', () => {
    const api = fakeApi({});
    renderScreen(<Footer />);
    expect(screen.getByText('Terms')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });
});
