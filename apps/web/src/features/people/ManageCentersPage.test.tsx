import type { TCenter } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { ManageCentersPage } from './ManageCentersPage';

const riverside: TCenter = {
  id: 7,
  name: 'Riverside Imaging',
  email: 'desk@riverside.example',
  aeTitles: ['RIVER_CT'],
  contactName: 'Dr. Rao',
  contactMobile: '9876501234',
  region: '',
  createdAt: '2026-11-26T10:00:00.000Z',
};

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Manage centers (/manage-centers)', () => {
  it('lists the centers and adds one with its AE titles', async () => {
    const added: TCenter = { ...riverside, id: 8, name: 'Hilltop Scans', aeTitles: ['HILL_MR', 'HILL_CT'] };
    let centers = [riverside];
    const api = fakeApi({
      'GET /api/admin/centers': () => ({ body: centers }),
      'POST /api/admin/centers': () => {
        centers = [...centers, added];
        return { body: added };
      },
    });
    renderScreen(<ManageCentersPage />, { path: '/manage-centers' });
    const table = await screen.findByRole('table', { name: 'Centers' });
    expect(await within(table).findByText('RIVER_CT')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add center' }));
    type('Name', 'Hilltop Scans');
    type('E-mail', 'desk@hilltop.example');
    type('DICOM AE titles', ' HILL_MR, HILL_CT ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls('POST', '/api/admin/centers')).toHaveLength(1));
    expect(api.calls('POST', '/api/admin/centers')[0]?.json()).toEqual({
      name: 'Hilltop Scans',
      email: 'desk@hilltop.example',
      aeTitles: ['HILL_MR', 'HILL_CT'],
      contactName: '',
      contactMobile: '',
    });
    expect(await within(table).findByText('HILL_MR, HILL_CT')).toBeTruthy();
  });

  it('names a bad AE title before sending, and shows the server’s refusal of a taken one', async () => {
    const api = fakeApi({
      'GET /api/admin/centers': { body: [riverside] },
      'PUT /api/admin/centers/7': (req: TRecordedRequest) => ({
        status: 409,
        body: {
          errorStatusCode: 409,
          errorDescription: `AE title ${req.json<{ aeTitles: string[] }>().aeTitles[1]} is already used by another center`,
          additionalInfo: 'aeTitles',
          txnId: 't1',
        },
      }),
    });
    renderScreen(<ManageCentersPage />, { path: '/manage-centers' });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Riverside Imaging' }));
    type('DICOM AE titles', 'RIVER_CT, BACK\\SLASH');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/without a backslash/)).toBeTruthy();
    expect(api.calls('PUT', '/api/admin/centers/7')).toHaveLength(0);

    type('DICOM AE titles', 'RIVER_CT, OTHER_CT');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('AE title OTHER_CT is already used by another center')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
