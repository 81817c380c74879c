import type { TViewerContext } from '@radflow/core';
import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { useSession } from '../auth/session';
import ViewerPage from './ViewerPage';

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
  status: 'CREATED',
  deleted: false,
  upload: 'COMPLETE',
  entry: { allowed: true },
  seriesNames: [],
  canAnnotate: true,
  openInWeasis: false,
  ...overrides,
});

/** The viewer route needs the signed-in session, as the shell provides it. */
function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const renderViewer = () =>
  renderRoutes(
    [
      {
        path: '/viewer/:studyInstanceUids/:id',
        element: (
          <SignedIn>
            <ViewerPage />
          </SignedIn>
        ),
      },
      { path: '/share', element: <p>Shared report page</p> },
    ],
    '/viewer/1.2.3/7?v=2',
  );

describe('ViewerPage entry (spec-core §2 Viewer entry, §4 Viewer payment)', () => {
  it('shows why a deleted study does not open, on a plain page without the viewer', async () => {
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR'])),
      'GET /api/viewer/7/context': {
        body: context({ deleted: true, entry: { allowed: false, message: 'Study has been deleted' } }),
      },
    });
    renderViewer();
    expect((await screen.findByTestId('viewer-notice')).textContent).toBe('Study has been deleted');
    expect(screen.queryByTestId('viewer')).toBeNull();
    expect(document.querySelector('canvas')).toBeNull();
    // Nobody is reading a study that did not open: no heartbeat for the assignors' list.
    expect(api.calls('POST', '/api/viewer/7/activity')).toHaveLength(0);
  });

  it("tells a viewer session 'Payment needed' and takes it to the share page of its e-mail", async () => {
    const user = buildUser(['ROLE_VIEWER'], { email: 'viewer@demo.local' });
    fakeApi({
      ...sessionHandlers(user),
      'GET /api/viewer/7/context': { body: context() },
      'GET /api/customer-report/share-info': { body: { paymentNotDone: true, paymentPolling: true } },
    });
    const { router } = renderViewer();
    expect((await screen.findByTestId('viewer-notice')).textContent).toBe('Payment needed');
    await waitFor(() => expect(screen.queryByText('Shared report page')).not.toBeNull(), {
      timeout: 4000,
    });
    expect(router.state.location.search).toBe('?link=viewer%40demo.local');
  });

  it("says 'Payment needed' when the server refuses the study with 402, before the poll has answered", async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_VIEWER'], { email: 'viewer@demo.local' })),
      'GET /api/viewer/7/context': {
        status: 402,
        body: { errorStatusCode: 402, errorDescription: 'Payment needed', additionalInfo: null, txnId: 't' },
      },
      'GET /api/customer-report/share-info': { body: { paymentNotDone: false, paymentPolling: false } },
    });
    renderViewer();
    expect((await screen.findByTestId('viewer-notice')).textContent).toBe('Payment needed');
  });
});
