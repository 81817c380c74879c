import type { TPayoutStatement } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { PayoutsPage } from './PayoutsPage';

const statement: TPayoutStatement = {
  id: 7,
  number: 'PO-2026-0001',
  doctorUserId: 3,
  doctorName: 'Dr Rao',
  periodStart: '2026-03-01',
  periodEnd: '2026-03-31',
  status: 'ISSUED',
  counts: { reads: 4, addenda: 2, urgent: 1 },
  total: 1234.5,
  paid: 0,
  due: 1234.5,
  issuedAt: '2026-04-01T10:00:00.000Z',
  version: 1,
};

describe('PayoutsPage', () => {
  it('lets the tele user add a default doctor rate', async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_TELE_RADIOLOGY'])),
      'GET /api/tele-payout/rates': {
        body: { rates: [], doctors: [{ id: 3, name: 'Dr Rao', email: 'r@x' }] },
      },
      'POST /api/tele-payout/rates': {
        body: {
          id: 1,
          doctorUserId: null,
          doctorName: null,
          modality: 'CT',
          studyPart: '',
          charge: 'READ',
          amount: 150,
          effectiveFrom: '2026-01-01',
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      },
    });
    renderScreen(<PayoutsPage />, { path: '/manage-tele-payout' });
    const form = await screen.findByRole('form', { name: 'Add a doctor rate' });
    fireEvent.change(within(form).getByLabelText(/Modality/), { target: { value: 'ct' } });
    fireEvent.change(within(form).getByLabelText(/Amount/), { target: { value: '150' } });
    fireEvent.change(within(form).getByLabelText(/Effective from/), { target: { value: '2026-01-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add rate' }));
    await waitFor(() => expect(api.calls('POST', '/api/tele-payout/rates')).toHaveLength(1));
    expect(api.calls('POST', '/api/tele-payout/rates')[0]?.json()).toEqual({
      doctorUserId: null,
      modality: 'ct',
      studyPart: '',
      charge: 'READ',
      amount: 150,
      effectiveFrom: '2026-01-01',
    });
  });

  it('shows a doctor only their statements, with the PDF and no run or payment', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR'])),
      'GET /api/tele-payout/statements': { body: { statements: [statement] } },
    });
    renderScreen(<PayoutsPage />, { path: '/manage-tele-payout' });
    const table = await screen.findByRole('table', { name: 'Payout statements' });
    expect(await within(table).findByText('PO-2026-0001')).toBeTruthy();
    expect(within(table).getByText('₹1,234.50')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'PDF' }).getAttribute('href')).toBe(
      '/api/tele-payout/statements/7/pdf',
    );
    expect(screen.queryByRole('button', { name: 'Issue statements' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Doctor rates' })).toBeNull();
  });
});
