import type { TViewerContext } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../../test/builders';
import { fakeApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render';
import { useSession } from '../../auth/session';
import { ViewerRoute } from '../ViewerRoute';
import { LIGHT_VIEWER_LABELS } from './LightViewerPage';

const WAIT = { timeout: 5000 };

const context = (overrides: Partial<TViewerContext> = {}): TViewerContext => ({
  id: 7,
  studyInstanceUid: '1.2.3',
  apiVersion: 2,
  patientName: 'DOE^JANE',
  patientId: 'P1',
  patientSex: 'F',
  patientAge: '040Y',
  studyDate: '20260101',
  studyDescription: 'CT Chest',
  modalities: ['CT'],
  status: 'SIGNED_OFF',
  deleted: false,
  upload: 'COMPLETE',
  entry: { allowed: true },
  seriesNames: [],
  canAnnotate: false,
  openInWeasis: false,
  ...overrides,
});

const text = (vr: string, value: string | number) => ({ vr, Value: [value] });
const series = (uid: string, number: number, description: string, count: number) => ({
  '0020000E': text('UI', uid),
  '00200011': text('IS', number),
  '00080060': text('CS', 'CT'),
  '0008103E': text('LO', description),
  '00201209': text('IS', count),
});
const instance = (sop: string, number: number, frames = 1) => ({
  '00080018': text('UI', sop),
  '00200013': text('IS', number),
  '00280008': text('IS', frames),
});

const STUDY = '/api/dicomweb/studies/1.2.3';
const studyHandlers = (overrides: Partial<TViewerContext> = {}) => ({
  'GET /api/viewer/7/context': { body: context(overrides) },
  [`GET ${STUDY}/series`]: { body: [series('9.2', 2, 'Lung', 1), series('9.1', 1, 'Axial', 3)] },
  // Stored out of order: the stack follows Instance Number; the last one has two frames.
  [`GET ${STUDY}/series/9.1/instances`]: {
    body: [instance('9.1.3', 3, 2), instance('9.1.1', 1), instance('9.1.2', 2)],
  },
  [`GET ${STUDY}/series/9.2/instances`]: { body: [instance('9.2.1', 1)] },
});

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const renderAt = (path: string) =>
  renderRoutes(
    [
      {
        path: '/viewer/:studyInstanceUids/:id',
        element: (
          <SignedIn>
            <ViewerRoute />
          </SignedIn>
        ),
      },
      { path: '/', element: <p>Home list</p> },
    ],
    path,
  );

const image = async () => {
  const stage = await screen.findByRole('img', { name: /^Image \d+ of \d+/ }, WAIT);
  return stage as HTMLImageElement;
};
const srcOf = (img: HTMLImageElement) => new URL(img.src, 'http://localhost');

afterEach(() => vi.restoreAllMocks());

describe('Which viewer the address opens (spec-core §2 Viewer entry: d selects one, otherwise the other)', () => {
  it('opens the light viewer without d=1: no Cornerstone, server-rendered frames', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    renderAt('/viewer/1.2.3/7?v=2');
    expect(await screen.findByTestId('light-viewer', {}, WAIT)).toBeTruthy();
    expect(screen.queryByTestId('viewer-loading')).toBeNull();
    expect(screen.queryByTestId('viewer')).toBeNull();
    expect(document.querySelector('canvas')).toBeNull();
  });

  it('opens the diagnostic viewer with d=1', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_DOCTOR'])), ...studyHandlers() });
    renderAt('/viewer/1.2.3/7?v=2&d=1');
    expect(await screen.findByTestId('viewer-loading', {}, WAIT)).toBeTruthy();
    expect(screen.queryByTestId('light-viewer')).toBeNull();
  });
});

describe('Light viewer', () => {
  it('shows the first series (by number) at its first image, rendered for the screen, with the series to choose from', async () => {
    const api = fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    renderAt('/viewer/1.2.3/7?v=2');
    const img = await image();
    expect(img.alt).toBe('Image 1 of 4');
    const url = srcOf(img);
    expect(url.pathname).toBe(`${STUDY}/series/9.1/instances/9.1.1/frames/1/rendered`);
    expect(url.searchParams.get('viewport')).toMatch(/^\d+,\d+$/);
    expect(url.searchParams.get('window')).toBeNull();
    const strip = screen.getByRole('group', { name: 'Series' });
    const buttons = within(strip).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      expect.stringMatching(/Axial/),
      expect.stringMatching(/Lung/),
    ]);
    expect(buttons[0]?.getAttribute('aria-pressed')).toBe('true');
    // Only the reads the light viewer needs: no first-image (Cornerstone's path), no metadata.
    expect(api.calls('GET', `${STUDY}/series/9.1/metadata`)).toHaveLength(0);
    expect(api.calls('GET', '/api/viewer/studies/1.2.3/first-image')).toHaveLength(0);
  });

  it('asks a frame that failed again before it says the image cannot be shown', async () => {
    // A phone's dropped packet or a loaded server's 503 fails one <img> load; that is not the image.
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    renderAt('/viewer/1.2.3/7?v=2');
    const first = await image();
    fireEvent.error(first);
    const second = await waitFor(() => {
      const next = screen.getByRole('img', { name: 'Image 1 of 4' });
      expect(next).not.toBe(first);
      return next;
    }, WAIT);
    expect(srcOf(second as HTMLImageElement).pathname).toBe(srcOf(first).pathname);
    expect(screen.queryByText(LIGHT_VIEWER_LABELS.failed)).toBeNull();
    fireEvent.error(second);
    const third = await waitFor(() => {
      const next = screen.getByRole('img', { name: 'Image 1 of 4' });
      expect(next).not.toBe(second);
      return next;
    }, WAIT);
    fireEvent.error(third);
    expect(await screen.findByText(LIGHT_VIEWER_LABELS.failed, {}, WAIT)).toBeTruthy();
  });

  it('moves through the stack in Instance Number order, multi-frame instances frame by frame', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'])),
      ...studyHandlers(),
      'GET /api/customer-report/share-info': { body: { paymentNotDone: false, paymentPolling: false } },
    });
    renderAt('/viewer/1.2.3/7?v=2');
    await image();
    const next = screen.getByRole('button', { name: 'Next image' });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      fireEvent.click(next);
      const img = await image();
      seen.push(`${img.alt} ${srcOf(img).pathname.split('/instances/')[1]}`);
    }
    expect(seen).toEqual([
      'Image 2 of 4 9.1.2/frames/1/rendered',
      'Image 3 of 4 9.1.3/frames/1/rendered',
      'Image 4 of 4 9.1.3/frames/2/rendered',
    ]);
    expect((next as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Series' })).getByRole('button', { name: /Lung/ }),
    );
    await waitFor(async () => expect((await image()).alt).toBe('Image 1 of 1'), WAIT);
    expect(srcOf(await image()).pathname).toContain('/series/9.2/instances/9.2.1/frames/1/rendered');
  });

  it('asks the server for the window presets of spec-core §9', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    renderAt('/viewer/1.2.3/7?v=2');
    await image();
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Window presets' })).getByRole('button', { name: 'Lung' }),
    );
    await waitFor(
      async () => expect(srcOf(await image()).searchParams.get('window')).toBe('-600,1500'),
      WAIT,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Default' }));
    await waitFor(async () => expect(srcOf(await image()).searchParams.get('window')).toBeNull(), WAIT);
  });

  it('puts the study api version into v when the link had none or an old one', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_CUSTOMER'])), ...studyHandlers({ apiVersion: 2 }) });
    const { router } = renderAt('/viewer/1.2.3/7?v=1&p=1');
    await image();
    await waitFor(() => expect(router.state.location.search).toBe('?v=2&p=1'), WAIT);
  });

  it('offers the diagnostic viewer with v and p kept, and closes a popup (p=1)', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    renderAt('/viewer/1.2.3/7?v=2&p=1');
    await image();
    const link = screen.getByRole('link', { name: 'Diagnostic viewer' });
    expect(link.getAttribute('href')).toBe('/viewer/1.2.3/7?v=2&p=1&d=1');
    fireEvent.click(screen.getByRole('button', { name: 'Close viewer' }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('goes home when it is not a popup', async () => {
    fakeApi({ ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])), ...studyHandlers() });
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    renderAt('/viewer/1.2.3/7?v=2');
    await image();
    fireEvent.click(screen.getByRole('button', { name: 'Close viewer' }));
    expect(await screen.findByText('Home list', {}, WAIT)).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });

  it('refuses a deleted study on a plain page, as the diagnostic viewer does', async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_REFERRING_DOCTOR'])),
      ...studyHandlers({ deleted: true, entry: { allowed: false, message: 'Study has been deleted' } }),
    });
    renderAt('/viewer/1.2.3/7?v=2');
    expect((await screen.findByTestId('viewer-notice', {}, WAIT)).textContent).toBe('Study has been deleted');
    expect(screen.queryByRole('img', { name: /^Image/ })).toBeNull();
  });

  it("shows a viewer session no image while its payment is due, and says 'Payment needed'", async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: 'viewer@demo.local' })),
      ...studyHandlers(),
      'GET /api/customer-report/share-info': { body: { paymentNotDone: true, paymentPolling: true } },
    });
    renderAt('/viewer/1.2.3/7?v=2');
    expect((await screen.findByTestId('viewer-notice', {}, WAIT)).textContent).toBe('Payment needed');
    expect(screen.queryByRole('img', { name: /^Image/ })).toBeNull();
  });
});
