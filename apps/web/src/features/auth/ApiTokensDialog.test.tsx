import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { ApiTokensDialog } from './ApiTokensDialog';

const token = (id: number, hint: string) => ({
  id,
  hint,
  deviceId: 'device-1',
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: '2027-01-30T10:00:00.000Z',
  lastUsedAt: null,
});

describe('ApiTokensDialog', () => {
  it("lists the owner's tokens, shows a new one once, and revokes one after confirmation", async () => {
    let tokens = [token(1, 'rft_abcd')];
    const api = fakeApi({
      'GET /api/user/token/list': () => ({ body: tokens }),
      'GET /api/user/token': () => {
        tokens = [...tokens, token(2, 'rft_wxyz')];
        return { body: { token: 'rft_wxyz-the-whole-secret', id: 2, expiresAt: '2027-01-30T10:00:00.000Z' } };
      },
      'DELETE /api/user/token/delete/1': () => {
        tokens = tokens.filter((t) => t.id !== 1);
        return { body: { ok: true } };
      },
    });
    renderScreen(<ApiTokensDialog open onClose={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'API tokens' });
    expect(within(list).getByText('rft_abcd…')).toBeTruthy();
    expect(within(list).getByText(/never used/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    expect(((await screen.findByLabelText('New token')) as HTMLInputElement).value).toBe(
      'rft_wxyz-the-whole-secret',
    );
    expect(await screen.findByText('rft_wxyz…')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Revoke rft_abcd' }));
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('status')).textContent).toBe('Token revoked');
    expect(api.calls('DELETE', '/api/user/token/delete/1')).toHaveLength(1);
    await screen.findByText('rft_wxyz…');
    expect(screen.queryByText('rft_abcd…')).toBeNull();
  });
});
