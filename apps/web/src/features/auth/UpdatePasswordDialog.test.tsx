import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { UpdatePasswordDialog, validatePasswordChange } from './UpdatePasswordDialog';

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('validatePasswordChange', () => {
  it('names the field in words', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'abc' })).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'New password must be at least 8 characters',
    });
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'better-secret' })).toEqual({});
  });

  it("refuses the owner's e-mail address or name (core passwordProblem)", () => {
    const owner = { email: 'asha@clinic.example', identifier: 'Asha Verma' };
    for (const newPassword of ['asha@clinic.example', 'AshaVerma2024']) {
      expect(validatePasswordChange({ currentPassword: 'old', newPassword }, owner)).toEqual({
        newPassword: 'The password must not contain your e-mail address or name',
      });
    }
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'better-secret' }, owner)).toEqual(
      {},
    );
  });
});

describe('UpdatePasswordDialog', () => {
  it('refuses a new password under 8 characters without calling the server', async () => {
    const api = fakeApi({});
    renderScreen(<UpdatePasswordDialog open onClose={() => undefined} />);
    type('Current password', 'demo12345');
    type('New password', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('New password must be at least 8 characters')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });

  it("posts the change, says 'Password updated' and closes", async () => {
    const onClose = vi.fn();
    const api = fakeApi({ 'POST /api/user-create/update-password': { body: { ok: true } } });
    renderScreen(<UpdatePasswordDialog open onClose={onClose} />);
    type('Current password', 'demo12345');
    type('New password', 'better-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect((await screen.findByRole('status')).textContent).toBe('Password updated');
    expect(onClose).toHaveBeenCalled();
    expect(api.calls('POST', '/api/user-create/update-password')[0]?.json()).toEqual({
      currentPassword: 'demo12345',
      newPassword: 'better-secret',
    });
  });

  it("shows the server's refusal and stays open", async () => {
    const onClose = vi.fn();
    fakeApi({
      'POST /api/user-create/update-password': {
        status: 400,
        body: errorBody(400, 'Current password is wrong', 'p1'),
      },
    });
    renderScreen(<UpdatePasswordDialog open onClose={onClose} />);
    type('Current password', 'nope1');
    type('New password', 'better-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Current password is wrong');
    expect(onClose).not.toHaveBeenCalled();
  });
});
