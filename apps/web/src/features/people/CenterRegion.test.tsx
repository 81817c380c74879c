import type { TCenter } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { ManageCentersPage } from './ManageCentersPage';

const patna: TCenter = {
  id: 7,
  name: 'Patna Scans',
  email: 'desk@patna.example',
  aeTitles: [],
  contactName: '',
  contactMobile: null,
  region: '',
  createdAt: '2026-11-26T10:00:00.000Z',
};

describe("a center's region (issue 24 §3 region dashboard)", () => {
  it('is set by the group admin in the center dialog, and the dashboards are a click away', async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'])),
      'GET /api/admin/centers': { body: [patna] },
      'PUT /api/admin/centers/7': { body: { ...patna, region: 'Bihar' } },
    });
    renderScreen(<ManageCentersPage />, { path: '/manage-centers' });
    expect(await screen.findByRole('link', { name: 'Region dashboard' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Patna Scans' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Region'), { target: { value: 'Bihar' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PUT', '/api/admin/centers/7')).toHaveLength(1));
    expect(api.calls('PUT', '/api/admin/centers/7')[0]?.json()).toMatchObject({ region: 'Bihar' });
  });
});
