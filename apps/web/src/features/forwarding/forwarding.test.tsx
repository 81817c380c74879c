import type { TForwardRecord, TForwardStatusResponse, TForwardingPacs } from '@radflow/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { CaseSendBadge } from './CaseSendBadge';
import { ForwardingPacsSettings } from './ForwardingPacsSettings';
import { PacsForwardDialog } from './PacsForwardDialog';

const pacs = (overrides: Partial<TForwardingPacs> = {}): TForwardingPacs => ({
  id: 3,
  centerId: 1,
  name: null,
  aeTitle: 'ORTHANC',
  ip: '10.0.0.5',
  port: 4242,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const record = (overrides: Partial<TForwardRecord> = {}): TForwardRecord => ({
  id: 7,
  reportStatusId: 12,
  studyInstanceId: '1.2.3',
  status: 'FAILED',
  aeTitle: 'ORTHANC',
  destination: '10.0.0.5:4242',
  total: 4,
  pending: 0,
  success: 1,
  failed: 3,
  percentage: 25,
  nextRetryAt: null,
  lastError: 'connection refused',
  failureMessage: 'Report Id: 12 | connection refused',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const statusOf = (records: TForwardRecord[], label = 'Case Failed'): TForwardStatusResponse => ({
  studies: [
    {
      reportStatusId: 12,
      badge: {
        state: records.length ? 'FAILED' : 'NONE',
        label: records.length ? label : '',
        percentage: null,
      },
      records,
    },
  ],
});

describe('PacsForwardDialog', () => {
  it("alerts 'Please create pacs server' and closes when the center has no forwarding PACS", async () => {
    fakeApi({
      'GET /api/forwarding-pacs': { body: [] },
      'GET /api/forward/status': { body: statusOf([]) },
    });
    const onClose = vi.fn();
    renderScreen(<PacsForwardDialog open onClose={onClose} reportStatusId={12} />);
    expect(await screen.findByText('Please create pacs server')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Forward to PACS' })).toBeNull());
  });

  it('lists each send with destination, pending, success and failed counts, and resends the failed', async () => {
    const api = fakeApi({
      'GET /api/forwarding-pacs': { body: [pacs()] },
      'GET /api/forward/status': { body: statusOf([record()]) },
      'POST /api/forward/7/resend': { body: record({ status: 'IN_PROGRESS', pending: 3, failed: 0 }) },
    });
    renderScreen(<PacsForwardDialog open onClose={() => undefined} reportStatusId={12} />);
    const dialog = await screen.findByRole('dialog', { name: 'Forward to PACS' });
    const table = await within(dialog).findByRole('table', { name: 'Sends to PACS' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['ORTHANC @ 10.0.0.5:4242', 'Failed', '0', '1', '3', 'Resend']);
    expect(within(dialog).getByText('Case Failed')).toBeTruthy();
    expect(within(dialog).getByText('Report Id: 12 | connection refused')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(api.calls('POST', '/api/forward/7/resend')).toHaveLength(1));
  });

  it("sends to the chosen destination and reports a failure as 'Report Id: {id} | {message}'", async () => {
    const api = fakeApi({
      'GET /api/forwarding-pacs': { body: [pacs(), pacs({ id: 4, aeTitle: 'OTHER' })] },
      'GET /api/forward/status': { body: statusOf([]) },
      'POST /api/forward/send': { status: 404, body: errorBody(404, 'PACS server not found') },
    });
    renderScreen(<PacsForwardDialog open onClose={() => undefined} reportStatusId={12} />);
    const dialog = await screen.findByRole('dialog', { name: 'Forward to PACS' });
    expect(await within(dialog).findByText('Not sent to a PACS yet')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.calls('POST', '/api/forward/send')).toHaveLength(1));
    expect(api.calls('POST', '/api/forward/send')[0]!.json()).toEqual({ reportStatusId: 12, pacsId: 3 });
    expect(await screen.findByText('Report Id: 12 | PACS server not found')).toBeTruthy();
  });
});

describe('ForwardingPacsSettings', () => {
  it('checks the spec-lab §5 rules before saving, saves, and tests the connection', async () => {
    const api = fakeApi({
      'GET /api/forwarding-pacs': { body: [pacs()] },
      'POST /api/forwarding-pacs': { body: pacs({ id: 9, aeTitle: 'NEWPACS' }) },
      'POST /api/forwarding-pacs/3/echo': { body: { ok: true, elapsedMs: 12, status: 0, error: null } },
    });
    renderScreen(<ForwardingPacsSettings />);
    const form = await screen.findByRole('form', { name: 'Add PACS server' });
    const type = (label: string, value: string) =>
      fireEvent.change(within(form).getByLabelText(label), { target: { value } });

    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Please add all details')).toBeTruthy();
    type('AE title', 'NEWPACS');
    type('IP', '10.0.0.300');
    type('Port', '104');
    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Please enter a valid IP address')).toBeTruthy();
    expect(api.calls('POST', '/api/forwarding-pacs')).toHaveLength(0);

    type('IP', '10.0.0.30');
    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(api.calls('POST', '/api/forwarding-pacs')).toHaveLength(1));
    expect(api.calls('POST', '/api/forwarding-pacs')[0]!.json()).toMatchObject({
      aeTitle: 'NEWPACS',
      ip: '10.0.0.30',
      port: '104',
    });

    const list = screen.getByRole('list', { name: 'Forwarding PACS servers' });
    fireEvent.click(within(list).getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Echo OK (12 ms)')).toBeTruthy();
  });
});

describe('CaseSendBadge', () => {
  it('shows Case Send, the percentage, Case Failed, or nothing', () => {
    const { rerender, container } = render(
      <CaseSendBadge badge={{ state: 'SEND', label: 'Case Send', percentage: 100 }} />,
    );
    expect(container.textContent).toBe('Case Send');
    rerender(<CaseSendBadge badge={{ state: 'IN_PROGRESS', label: '42%', percentage: 42 }} />);
    expect(container.textContent).toBe('42%');
    rerender(<CaseSendBadge badge={{ state: 'FAILED', label: 'Case Failed', percentage: null }} />);
    expect(container.textContent).toBe('Case Failed');
    rerender(<CaseSendBadge badge={{ state: 'NONE', label: '', percentage: null }} />);
    expect(container.textContent).toBe('');
  });
});
