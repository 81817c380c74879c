import { REPORT_LEFT_OUT_HEADER, REPORT_LEFT_OUT_MESSAGES, type TStudyListRow } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { DOWNLOAD_BUTTON_LABEL, DownloadReportMenu } from './DownloadReportMenu';

/*
 * issue 21 §7: 'PDF with header', 'with images' and 'with header and images' gave the plain PDF
 * without a word when no letterhead or key images existed. The menu asks the row's extras first and
 * disables such an option with the reason and where to set it; a document that still comes without
 * them (asked before the answer) is followed by the server's word (x-report-left-out).
 */

const SLOW = { timeout: 20_000 };
const row: TStudyListRow = buildStudyRow({ id: 7, status: 'SIGNED_OFF', hasReports: true, centerId: 1 });

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function renderMenu(extras: TFakeReply, documents: TFakeReply = { text: '%PDF-1.3 fake' }) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_CENTER'], { centerId: 1 })),
    [`GET /api/pdf/extras/${row.id}`]: extras,
    'POST /api/pdf/download': documents,
    'POST /api/pdf/download-images': documents,
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <SignedIn>
            <DownloadReportMenu row={row} />
          </SignedIn>
        ),
      },
    ],
    '/',
  );
  return api;
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

/** The menu item whose label (the primary text, not the reason under it) is `name`. */
const item = (name: string): HTMLElement => {
  const found = within(screen.getByRole('menu'))
    .getAllByRole('menuitem')
    .find((el) => el.querySelector('.MuiListItemText-primary')?.textContent === name);
  expect(found, name).toBeTruthy();
  return found as HTMLElement;
};
const disabled = (el: HTMLElement) => el.getAttribute('aria-disabled') === 'true';

describe('the download menu says what a document cannot hold', SLOW, () => {
  it('disables header and images options with the reason and where to set it', async () => {
    renderMenu({ body: { letterhead: false, keyImages: 0 } });
    fireEvent.click(await screen.findByRole('button', { name: DOWNLOAD_BUTTON_LABEL }));
    await screen.findByRole('menu');
    await waitFor(() => expect(disabled(item('PDF with header'))).toBe(true));
    expect(item('PDF with header').textContent).toContain(REPORT_LEFT_OUT_MESSAGES.LETTERHEAD);
    expect(disabled(item('PDF with images'))).toBe(true);
    expect(item('PDF with images').textContent).toContain(REPORT_LEFT_OUT_MESSAGES.KEY_IMAGES);
    const both = item('PDF with header and images');
    expect(disabled(both)).toBe(true);
    expect(both.textContent).toContain(REPORT_LEFT_OUT_MESSAGES.LETTERHEAD);
    expect(both.textContent).toContain(REPORT_LEFT_OUT_MESSAGES.KEY_IMAGES);
    // The plain PDF and Print ask for nothing extra.
    expect(disabled(item('PDF'))).toBe(false);
    expect(disabled(item('Print'))).toBe(false);
  });

  it('offers them when the letterhead and key images exist', async () => {
    renderMenu({ body: { letterhead: true, keyImages: 2 } });
    fireEvent.click(await screen.findByRole('button', { name: DOWNLOAD_BUTTON_LABEL }));
    await screen.findByRole('menu');
    // Enabled once the answer came (and stays so).
    await waitFor(() =>
      expect(item('PDF with header and images').textContent).toBe('PDF with header and images'),
    );
    for (const name of ['PDF with header', 'PDF with images', 'PDF with header and images']) {
      expect(disabled(item(name)), name).toBe(false);
    }
  });

  it('says what the document left out when the server names it', async () => {
    const api = renderMenu(
      // The extras could not be read: the options stay, the server's word follows the document.
      {
        status: 500,
        body: { errorStatusCode: 500, errorDescription: 'x', additionalInfo: null, txnId: 't' },
      },
      { text: '%PDF-1.3 fake', headers: { [REPORT_LEFT_OUT_HEADER]: 'LETTERHEAD' } },
    );
    fireEvent.click(await screen.findByRole('button', { name: DOWNLOAD_BUTTON_LABEL }));
    await screen.findByRole('menu');
    await waitFor(() => expect(api.calls('GET', `/api/pdf/extras/${row.id}`)).toHaveLength(1));
    fireEvent.click(item('PDF with header'));
    expect(
      await screen.findByText(new RegExp(REPORT_LEFT_OUT_MESSAGES.LETTERHEAD.slice(0, 30))),
    ).toBeTruthy();
  });
});
