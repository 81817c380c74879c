import { MESSAGE_PASSWORD_PERSONAL } from '@radflow/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { SetPasswordPage } from './SetPasswordPage';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const invalid = {
  status: 400,
  body: {
    errorStatusCode: 400,
    errorDescription: 'This link has expired or was already used',
    additionalInfo: 'token',
    txnId: 't',
  },
};

describe('Set password (/set-password)', () => {
  it('greets the invitee, checks the password rules, and sets it', async () => {
    const api = fakeApi({
      'POST /api/user-create/password-link': {
        body: { email: 'anil.kumar@clinic.example', identifier: 'Anil Kumar', purpose: 'INVITE' },
      },
      'POST /api/user-create/set-password': { body: { ok: true } },
    });
    renderScreen(<SetPasswordPage />, { path: `/set-password?token=${TOKEN}`, route: '/set-password' });
    expect(await screen.findByText('anil.kumar@clinic.example')).toBeTruthy();

    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('New password', 'anilkumar-2026');
    type('Repeat the password', 'anilkumar-2026');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(MESSAGE_PASSWORD_PERSONAL)).toBeTruthy();
    expect(api.calls('POST', '/api/user-create/set-password')).toHaveLength(0);

    type('New password', 'violet-harbour-42');
    type('Repeat the password', 'violet-harbour-42');
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Your password is set.')).toBeTruthy();
    expect(api.calls('POST', '/api/user-create/set-password')[0]?.json()).toEqual({
      token: TOKEN,
      newPassword: 'violet-harbour-42',
    });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      '/login-page/anil.kumar%40clinic.example',
    );
  });

  it('says so when the link is used or expired', async () => {
    fakeApi({ 'POST /api/user-create/password-link': invalid });
    renderScreen(<SetPasswordPage />, { path: `/set-password?token=${TOKEN}`, route: '/set-password' });
    await waitFor(() => expect(screen.getByText(/This link has expired or was already used/)).toBeTruthy());
    expect(screen.queryByLabelText('New password')).toBeNull();
  });
});
