import type {
  TPendingCase,
  TReportDraft,
  TRouterEvent,
  TRouterInfo,
  TRouterVersionCheck,
} from '@radflow/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { PacsRouterScreen } from './PacsRouterPage';
import { RouterError, type RouterClient, type TRouterEventHandlers } from './router-client';

const EMAIL = 'center@radflow.example';

const info = (signedIn: boolean): TRouterInfo => ({
  name: 'Radflow router',
  version: '0.1.0',
  serverUrl: 'https://cloud.radflow.example',
  startedAt: '2026-11-27T10:00:00.000Z',
  user: signedIn ? { email: EMAIL, identifier: 'City Scans' } : null,
  queue: { studies: 0, instances: 0, sent: 0, failedStudies: 0 },
});

const study = (overrides: Partial<TPendingCase> = {}): TPendingCase => ({
  studyInstanceUid: '1.2.3',
  patientName: 'Router^Test',
  patientId: 'P1',
  patientSex: 'F',
  patientAge: '045Y',
  modality: 'CT',
  studyDate: '20261127',
  studyDescription: 'CT head',
  urgent: false,
  queuedAt: '2026-11-27T10:00:00.000Z',
  state: 'UPLOADING',
  instances: [],
  total: 4,
  sent: 1,
  error: null,
  retryAt: null,
  ...overrides,
});

const upToDate: TRouterVersionCheck = {
  currentVersion: '0.1.0',
  latestVersion: '0.1.0',
  updateAvailable: false,
  notes: null,
};

/** A router client the test drives: its answers, its calls and its event stream. */
function fakeRouter(
  options: { signedIn?: boolean; cases?: TPendingCase[]; version?: TRouterVersionCheck } = {},
) {
  let signedIn = options.signedIn ?? true;
  let cases = options.cases ?? [];
  let handlers: TRouterEventHandlers | null = null;
  const client = {
    baseUrl: 'http://localhost:8090',
    hasSession: () => signedIn,
    forgetSession: vi.fn(),
    info: vi.fn(async () => info(signedIn)),
    login: vi.fn(async () => {
      signedIn = true;
      return { token: 't', email: EMAIL, identifier: 'City Scans', expiresAt: '2026-11-27T22:00:00.000Z' };
    }),
    logout: vi.fn(async () => {
      signedIn = false;
    }),
    pendingCases: vi.fn(async () => cases),
    retry: vi.fn(async () => undefined),
    deleteUploadedStudy: vi.fn(async () => undefined),
    uploadFile: vi.fn(async () => ({ queued: 1, studyInstanceUids: ['1.2.3'], skipped: [] })),
    uploadZip: vi.fn(async () => ({ queued: 3, studyInstanceUids: ['1.2.3'], skipped: [] })),
    sendJobs: vi.fn(async () => []),
    settings: vi.fn(async () => ({ ROUTER_PORT: 8090, ROUTER_API_TOKEN: '(set, not shown)' })),
    checkVersion: vi.fn(async () => options.version ?? upToDate),
    update: vi.fn(async () => ({ status: 'STARTED' as const, version: '0.2.0' })),
    hybridStudies: vi.fn(async () => []),
    dicomJson: vi.fn(async () => []),
    image: vi.fn(async () => new Blob()),
    openViewerSession: vi.fn(async () => undefined),
    offlineAnnotations: vi.fn(async () => ({ annotations: [], keyImages: [] })),
    saveOfflineAnnotation: vi.fn(async () => Promise.reject(new Error('not in this test'))),
    deleteOfflineAnnotation: vi.fn(async () => undefined),
    offlineDraft: vi.fn(async (_uid: string): Promise<TReportDraft | null> => null),
    saveOfflineDraft: vi.fn(async (save: { name: string; content: string; baseVersion: number | null }) => ({
      name: save.name,
      content: save.content,
      baseVersion: save.baseVersion,
      updatedAt: new Date().toISOString(),
    })),
    deleteOfflineDraft: vi.fn(async (_uid: string) => undefined),
    offlineVersions: vi.fn(async () => []),
    saveOfflineReport: vi.fn(async () => {
      throw new Error('not in this test');
    }),
    resolveOfflineConflict: vi.fn(async () => {
      throw new Error('not in this test');
    }),
    hybridTemplates: vi.fn(async () => {
      throw new Error('not in this test');
    }),
    openEvents: vi.fn((h: TRouterEventHandlers) => {
      handlers = h;
      return () => {
        handlers = null;
      };
    }),
  } satisfies RouterClient;
  return {
    client,
    setCases: (next: TPendingCase[]) => {
      cases = next;
    },
    stream: {
      open: () => act(() => handlers?.onOpen()),
      fail: () => act(() => handlers?.onError()),
      send: (event: Omit<TRouterEvent, 'at'>) => act(() => handlers?.onEvent({ ...event, at: '' })),
      isOpen: () => handlers !== null,
    },
  };
}

const render = (router: ReturnType<typeof fakeRouter>) =>
  renderScreen(<PacsRouterScreen client={router.client} userEmail={EMAIL} />, { path: '/pacs-router' });

describe('PacsRouterScreen', () => {
  it('asks for the password when the router has no session, and signs in with the user e-mail', async () => {
    const router = fakeRouter({ signedIn: false });
    render(router);
    const form = await screen.findByRole('form', { name: 'Sign in to the router' });
    fireEvent.change(within(form).getByLabelText(/Password/), { target: { value: 'secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Sign in to router' }));
    await waitFor(() =>
      expect(router.client.login).toHaveBeenCalledWith({ email: EMAIL, password: 'secret' }),
    );
    expect(await screen.findByText("The router's queue is empty.")).toBeTruthy();
  });

  it('says offline and offers the download when the router does not answer', async () => {
    const router = fakeRouter();
    router.client.info.mockRejectedValue(
      new RouterError(0, 'The router could not be reached. Is it running on this computer?'),
    );
    render(router);
    expect(await screen.findByText(/The router could not be reached/)).toBeTruthy();
    expect(screen.getByTestId('router-status').textContent).toBe('Offline');
    expect(screen.getByRole('link', { name: 'Download router' }).getAttribute('href')).toBe(
      '/api/router/download',
    );
  });

  it('shows online from the event stream, offline on its error, and refreshes info on reconnect', async () => {
    const router = fakeRouter();
    render(router);
    await waitFor(() => expect(router.stream.isOpen()).toBe(true));
    router.stream.open();
    await waitFor(() => expect(screen.getByTestId('router-status').textContent).toBe('Online'));
    const before = router.client.info.mock.calls.length;
    router.stream.fail();
    await waitFor(() => expect(screen.getByTestId('router-status').textContent).toBe('Offline'));
    router.stream.open();
    await waitFor(() => expect(screen.getByTestId('router-status').textContent).toBe('Online'));
    await waitFor(() => expect(router.client.info.mock.calls.length).toBeGreaterThan(before));
  });

  it('shows the queue by study with progress, refreshed by an event; an error with its reason and Retry', async () => {
    const router = fakeRouter({ cases: [study()] });
    render(router);
    const table = await screen.findByRole('table', { name: 'Upload queue' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('1 / 4')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: '25% sent' })).toBeTruthy();
    expect(within(row).getByText('Uploading')).toBeTruthy();

    await waitFor(() => expect(router.stream.isOpen()).toBe(true));
    router.setCases([
      study({ state: 'FAILED', sent: 3, error: 'The cloud refused the instance: checksum mismatch' }),
    ]);
    router.stream.send({ type: 'failed', studyInstanceUid: '1.2.3', error: 'checksum mismatch' });
    const failedRow = await waitFor(() => {
      const r = within(screen.getByRole('table', { name: 'Upload queue' })).getAllByRole('row')[1]!;
      expect(within(r).getByText('Failed')).toBeTruthy();
      return r;
    });
    expect(within(failedRow).getByText('3 / 4')).toBeTruthy();
    expect(within(failedRow).getByText('The cloud refused the instance: checksum mismatch')).toBeTruthy();
    fireEvent.click(within(failedRow).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(router.client.retry).toHaveBeenCalledWith('1.2.3'));
  });

  it('offers an uploaded study for deletion from the router, and shows the settings', async () => {
    const router = fakeRouter({ cases: [study({ state: 'DONE', sent: 4 })] });
    render(router);
    const table = await screen.findByRole('table', { name: 'Upload queue' });
    expect(within(table).getByText('Uploaded')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Delete from router' }));
    await waitFor(() => expect(router.client.deleteUploadedStudy).toHaveBeenCalledWith('1.2.3'));
    const settings = await screen.findByRole('table', { name: 'Router settings' });
    expect(within(settings).getByRole('row', { name: 'ROUTER_PORT 8090' })).toBeTruthy();
    expect(within(settings).getByRole('row', { name: 'ROUTER_API_TOKEN (set, not shown)' })).toBeTruthy();
  });

  it('offers the update when check-version says a newer version, and updates on Update', async () => {
    const router = fakeRouter({
      version: {
        currentVersion: '0.1.0',
        latestVersion: '0.2.0',
        updateAvailable: true,
        notes: 'Faster uploads',
      },
    });
    render(router);
    const dialog = await screen.findByRole('dialog', { name: 'Router update' });
    expect(
      within(dialog).getByText(/Version 0.2.0 of the router is available; this computer runs 0.1.0/),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(router.client.update).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Router update' })).toBeNull());
  });

  it('does not offer an update when the router is up to date', async () => {
    const router = fakeRouter();
    render(router);
    await screen.findByRole('table', { name: 'Router settings' });
    await waitFor(() => expect(router.client.checkVersion).toHaveBeenCalled());
    expect(screen.queryByRole('dialog', { name: 'Router update' })).toBeNull();
  });
});
