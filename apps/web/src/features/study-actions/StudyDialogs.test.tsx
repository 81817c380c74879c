import type { TRole, TStudyAttachment, TStudyListRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { buildFile, fakeXhr } from '../../test/fake-xhr';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import type { TStudyDialogProps } from './dialog-props';
import { AttachmentsDialog, QrCodePrintDialog, ShareStudyDialog } from './lazy-dialogs';
import { buildStudyRow } from '../../test/study-row';

const SLOW = { timeout: 20_000 };
type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** The center of the signed-in user and, unless a test says otherwise, of the row. */
const OWN_CENTER_ID = 1;

function renderDialog(
  Dialog: React.ComponentType<TStudyDialogProps>,
  { roles, row, handlers = {} }: { roles: TRole[]; row: TStudyListRow; handlers?: Record<string, THandler> },
) {
  // Signed in at the row's center: center users act on their own center's studies only.
  const api = fakeApi({ ...sessionHandlers(buildUser(roles, { centerId: OWN_CENTER_ID })), ...handlers });
  const onChanged = vi.fn();
  const onClose = vi.fn();
  const view = renderScreen(
    <SignedIn>
      <Dialog row={{ centerId: OWN_CENTER_ID, ...row }} onClose={onClose} onChanged={onChanged} />
    </SignedIn>,
  );
  return { ...view, api, onChanged, onClose };
}

const findDialog = (name: string | RegExp) => screen.findByRole('dialog', { name }, { timeout: 10_000 });

const attachment = (over: Partial<TStudyAttachment>): TStudyAttachment => ({
  id: 1,
  reportStatusId: 1,
  kind: 'HISTORY',
  path: 'abcdefghijklmnop',
  fileName: 'note.pdf',
  contentType: 'application/pdf',
  sizeBytes: 10,
  createdBy: '',
  createdAt: '2026-06-01T08:00:00Z',
  ...over,
});

describe('AttachmentsDialog', () => {
  it("uploads many files one per request, counting 'file uploaded N out of M'", SLOW, async () => {
    const row = buildStudyRow();
    const xhr = fakeXhr(() => ({ body: attachment({}) }));
    const { onChanged } = renderDialog(AttachmentsDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        [`GET /api/attachments/${row.id}`]: {
          body: { historyAttachment: [], filmAttachment: [], reportAttachment: [] },
        },
      },
    });
    const dialog = await findDialog(/^Attachments/);
    const input = within(dialog).getByLabelText('Add history files');
    expect(input.getAttribute('accept')).toContain('.pdf');
    fireEvent.change(input, {
      target: { files: [buildFile('a.pdf'), buildFile('b.png'), buildFile('c.exe')] },
    });
    expect(await within(dialog).findByText('file uploaded 2 out of 2')).toBeTruthy();
    expect(await screen.findByText('Image attached')).toBeTruthy();
    expect(within(dialog).getByText(/File type not allowed: c\.exe/)).toBeTruthy();
    expect(xhr.requests.map((r) => [r.path, r.files().map((f) => f.name)])).toEqual([
      [`/api/history/upload/${row.id}`, ['a.pdf']],
      [`/api/history/upload/${row.id}`, ['b.png']],
    ]);
    expect(onChanged).toHaveBeenCalled();
  });

  it("deletes a file after the confirmation and says 'Image deleted'", SLOW, async () => {
    const row = buildStudyRow();
    const file = attachment({ path: 'p1p1p1p1p1p1p1p1', fileName: 'old.pdf' });
    const { api } = renderDialog(AttachmentsDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        [`GET /api/attachments/${row.id}`]: {
          body: { historyAttachment: [file], filmAttachment: [], reportAttachment: [] },
        },
        [`DELETE /api/history/delete/${row.id}/p1p1p1p1p1p1p1p1`]: { body: null },
      },
    });
    const dialog = await findDialog(/^Attachments/);
    const download = await within(dialog).findByRole('link', { name: 'Download old.pdf' });
    expect(download.getAttribute('href')).toBe(`/api/history/download/${row.id}/p1p1p1p1p1p1p1p1/old.pdf`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete old.pdf' }));
    const confirm = await findDialog('Please confirm');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Image deleted')).toBeTruthy();
    expect(api.calls('DELETE', `/api/history/delete/${row.id}/p1p1p1p1p1p1p1p1`)).toHaveLength(1);
  });

  it('lets a doctor download but neither add nor delete history files', SLOW, async () => {
    const row = buildStudyRow();
    renderDialog(AttachmentsDialog, {
      roles: ['ROLE_DOCTOR'],
      row,
      handlers: {
        [`GET /api/attachments/${row.id}`]: {
          body: { historyAttachment: [attachment({})], filmAttachment: [], reportAttachment: [] },
        },
      },
    });
    const dialog = await findDialog(/^Attachments/);
    await within(dialog).findByRole('link', { name: 'Download note.pdf' });
    expect(within(dialog).queryByRole('button', { name: 'Delete note.pdf' })).toBeNull();
    expect(within(dialog).queryByLabelText('Add history files')).toBeNull();
  });
});

describe('AttachmentsDialog for a read-only role', () => {
  it(
    'shows a referring doctor no history tab, and report files only after sign-off (core readableAttachmentKinds)',
    SLOW,
    async () => {
      const row = buildStudyRow({ status: 'REPORTED' });
      renderDialog(AttachmentsDialog, {
        roles: ['ROLE_REFERRING_DOCTOR'],
        row,
        handlers: {
          [`GET /api/attachments/${row.id}`]: {
            body: { historyAttachment: [], filmAttachment: [], reportAttachment: [] },
          },
        },
      });
      const dialog = await findDialog(/^Attachments/);
      const tabs = within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent);
      expect(tabs).toEqual(['Film']);
    },
  );
});

describe('ShareStudyDialog', () => {
  it('refuses a mobile outside the pattern, then sends the link by message', SLOW, async () => {
    const row = buildStudyRow({ mobileNumber: null });
    const { api } = renderDialog(ShareStudyDialog, {
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        [`POST /api/report-status/send-message/${row.id}`]: {
          body: {
            shareLink: 'http://localhost/share?link=tok',
            channels: ['SMS'],
            sharedNumbers: ['9876543210'],
            sharedEmails: [],
          },
        },
      },
    });
    const dialog = await findDialog(/^Share study/);
    const mobile = within(dialog).getByRole('textbox', { name: 'Mobile number' });
    fireEvent.change(mobile, { target: { value: '12345' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText('Please enter a valid 10 digit mobile number')).toBeTruthy();
    expect(api.calls('POST', `/api/report-status/send-message/${row.id}`)).toHaveLength(0);

    fireEvent.change(mobile, { target: { value: '9876543210' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Message sent')).toBeTruthy();
    expect(api.calls('POST', `/api/report-status/send-message/${row.id}`)[0]?.json()).toEqual({
      number: '9876543210',
      referringPhysician: row.referringPhysicianName,
    });
    expect(within(dialog).getByText('Numbers: 9876543210')).toBeTruthy();
  });
});

describe('QrCodePrintDialog', () => {
  it("draws the QR of the study's share page", SLOW, async () => {
    const row = buildStudyRow({ shareLink: 'tok123' });
    renderDialog(QrCodePrintDialog, { roles: ['ROLE_CENTER'], row });
    const dialog = await findDialog(/^Print QR code/);
    const img = await within(dialog).findByRole('img', {
      name: `QR code for ${window.location.origin}/share?link=tok123`,
    });
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Print' })).toHaveProperty('disabled', false),
    );
  });
});
