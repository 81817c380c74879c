import type { TReportMessage, TRole, TStudyListRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import type { TStudyDialogProps } from './dialog-props';
import { QrCodePrintDialog, ShareStudyDialog } from './lazy-dialogs';

const SLOW = { timeout: 20_000 };
type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? <Suspense fallback={null}>{children}</Suspense> : null;
}

function renderDialog(
  Dialog: React.ComponentType<TStudyDialogProps>,
  { roles, row, handlers = {} }: { roles: TRole[]; row: TStudyListRow; handlers?: Record<string, THandler> },
) {
  const api = fakeApi({ ...sessionHandlers(buildUser(roles, { centerId: 1 })), ...handlers });
  const onChanged = vi.fn();
  renderScreen(
    <SignedIn>
      <Dialog row={{ centerId: 1, ...row }} onClose={vi.fn()} onChanged={onChanged} />
    </SignedIn>,
  );
  return { api, onChanged };
}

const message = (over: Partial<TReportMessage>): TReportMessage => ({
  id: 1,
  channel: 'EMAIL',
  recipient: 'ref@clinic.test',
  status: 'SENT',
  sentAt: '2026-06-01T08:00:00Z',
  failureReason: null,
  attachments: [],
  ...over,
});

describe('ShareStudyDialog delivery list', () => {
  it("shows each message's channel, recipient and status, and refreshes after a send", SLOW, async () => {
    const row = buildStudyRow({ email: null });
    let sent: TReportMessage[] = [
      message({ id: 1, channel: 'SMS', recipient: '9876543210', status: 'PENDING' }),
    ];
    const { api } = renderDialog(ShareStudyDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        [`GET /api/report-status/messages/${row.id}`]: () => ({ body: sent }),
        [`POST /api/report-status/send-email/${row.id}`]: () => {
          sent = [
            message({
              id: 2,
              recipient: 'x@refused.test',
              status: 'FAILED',
              failureReason: '550 mailbox unavailable',
              attachments: ['report-7.pdf'],
            }),
            ...sent,
          ];
          return {
            status: 502,
            body: {
              errorStatusCode: 502,
              errorDescription: 'The e-mail could not be sent',
              additionalInfo: '550 mailbox unavailable',
              txnId: 't',
            },
          };
        },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: /^Share study/ }, { timeout: 10_000 });
    const table = await within(dialog).findByRole('table', { name: 'Messages sent' });
    expect(within(table).getByText('9876543210')).toBeTruthy();
    expect(within(table).getByText('Queued')).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: 'E-mail' }), {
      target: { value: 'x@refused.test' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send e-mail' }));
    expect(await within(dialog).findByText('550 mailbox unavailable')).toBeTruthy();
    const rows = within(within(dialog).getByRole('table', { name: 'Messages sent' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Channel'),
      expect.stringMatching(/E-mail.*x@refused\.test.*Attached: report-7\.pdf.*Failed/),
      expect.stringMatching(/SMS.*9876543210.*Queued/),
    ]);
    expect(api.calls('GET', `/api/report-status/messages/${row.id}`).length).toBeGreaterThanOrEqual(2);
  });
});

describe('QrCodePrintDialog without a share link', () => {
  it('asks the server for the link and its QR, then offers Print', SLOW, async () => {
    const row = buildStudyRow({ shareLink: null });
    const { api, onChanged } = renderDialog(QrCodePrintDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        'POST /api/pdf/generate-viewer-qr': {
          body: {
            url: 'http://localhost/share?link=newtok',
            qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
          },
        },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: /^Print QR code/ }, { timeout: 10_000 });
    const img = await within(dialog).findByRole('img', {
      name: 'QR code for http://localhost/share?link=newtok',
    });
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(api.calls('POST', '/api/pdf/generate-viewer-qr')[0]?.json()).toEqual({ reportStatusId: row.id });
    expect(onChanged).toHaveBeenCalled();
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Print' })).toHaveProperty('disabled', false),
    );
  });

  it('says why when the group does not allow it', SLOW, async () => {
    const row = buildStudyRow({ shareLink: null });
    renderDialog(QrCodePrintDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        'POST /api/pdf/generate-viewer-qr': {
          status: 403,
          body: {
            errorStatusCode: 403,
            errorDescription: 'Secure viewer QR codes are not enabled for this group',
            additionalInfo: null,
            txnId: 't',
          },
        },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: /^Print QR code/ }, { timeout: 10_000 });
    expect(
      await within(dialog).findByText('Secure viewer QR codes are not enabled for this group'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Print' })).toHaveProperty('disabled', true);
  });
});
