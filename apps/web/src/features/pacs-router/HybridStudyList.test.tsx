import { ROUTER_SERVED_META } from '@radflow/core';
import type {
  THybridStudy,
  TOfflineReport,
  TOfflineVersion,
  TReportDraft,
  TReportTemplate,
  TRouterInfo,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, renderScreen } from '../../test/render';
import { HYBRID_STATE_LABELS, HybridStudyListScreen } from './HybridStudyList';
import { offlineViewerPath } from './offline-viewer';
import type { TDicomJson } from '../viewer/data-source/dicom-json';
import type { RouterClient } from './router-client';
import { stubEditorLayout } from '../../test/editor-layout';
import { offlineDraftKey, readDraftAt, writeDraftAt } from '../report-editor/local-drafts';

/*
 * Issue 27 §4: /hybrid-study-list lists the studies the center's router holds with their offline
 * report, whether the cloud is reachable or not; a conflict is shown with its reason; a report is
 * written on the router.
 */

const EMAIL = 'dr@radflow.example';
const info = (signedIn: boolean, email = EMAIL): TRouterInfo => ({
  name: 'Radflow router',
  version: '0.1.0',
  serverUrl: 'https://cloud.radflow.example',
  startedAt: '2026-11-27T10:00:00.000Z',
  user: signedIn ? { email, identifier: 'Dr Hybrid', hybrid: true } : null,
  queue: { studies: 0, instances: 0, sent: 0, failedStudies: 0 },
});

const report = (overrides: Partial<TOfflineReport> = {}): TOfflineReport => ({
  studyInstanceUid: '1.2.3',
  name: 'CT Head',
  content: '<p>No bleed.</p>',
  localVersion: 1,
  signedOff: false,
  state: 'PENDING',
  reason: null,
  authorEmail: EMAIL,
  authorName: 'Dr Hybrid',
  writtenAt: '2026-11-27T10:05:00.000Z',
  reportStatusId: null,
  cloudVersion: null,
  resolution: null,
  ...overrides,
});

beforeAll(stubEditorLayout);

const study = (overrides: Partial<THybridStudy> = {}): THybridStudy => ({
  studyInstanceUid: '1.2.3',
  reportStatusId: null,
  patientName: 'DOE^JANE',
  patientId: 'P-1',
  patientSex: 'F',
  patientAge: '045Y',
  modality: 'CT',
  studyDate: '20261127',
  studyDescription: 'CT head plain',
  urgent: false,
  receivedAt: '2026-11-27T10:00:00.000Z',
  images: 12,
  uploaded: false,
  report: null,
  ...overrides,
});

const TEMPLATE = (overrides: Partial<TReportTemplate>): TReportTemplate => ({
  id: 1,
  name: 'CT Head normal',
  content: '<p>No acute intracranial abnormality.</p>',
  modalities: ['CT'],
  bodyParts: [],
  gender: null,
  owner: EMAIL,
  isOwn: true,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

function fakeRouter(
  options: {
    signedIn?: boolean;
    studies?: THybridStudy[];
    templates?: TReportTemplate[];
    /** The router session's user, when not EMAIL. */
    sessionEmail?: string;
    versions?: TOfflineVersion[];
  } = {},
) {
  let signedIn = options.signedIn ?? true;
  let sessionEmail = options.sessionEmail;
  const unused = vi.fn(async () => {
    throw new Error('not in this test');
  });
  const client = {
    baseUrl: 'http://localhost:8090',
    hasSession: () => signedIn,
    forgetSession: vi.fn(),
    info: vi.fn(async () => info(signedIn, sessionEmail)),
    login: vi.fn(async ({ email }: { email: string; password: string }) => {
      signedIn = true;
      sessionEmail = email;
      return {
        token: 't',
        email: EMAIL,
        identifier: 'Dr Hybrid',
        hybrid: true,
        expiresAt: '2026-11-27T22:00:00.000Z',
      };
    }),
    logout: vi.fn(async () => undefined),
    pendingCases: unused,
    retry: unused,
    deleteUploadedStudy: unused,
    uploadFile: unused,
    uploadZip: unused,
    sendJobs: unused,
    settings: unused,
    checkVersion: unused,
    update: unused,
    openEvents: vi.fn(() => () => undefined),
    hybridStudies: vi.fn(async () => options.studies ?? []),
    hybridTemplates: vi.fn(async () => ({
      savedAt: '2026-11-27T09:00:00.000Z',
      templates: options.templates ?? [],
    })),
    dicomJson: vi.fn(async (_url: string): Promise<TDicomJson[]> => []),
    image: vi.fn(async (_url: string) => new Blob()),
    openViewerSession: vi.fn(async () => undefined),
    offlineAnnotations: vi.fn(async (_uid: string) => ({ annotations: [], keyImages: [] })),
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
    offlineVersions: vi.fn(async (_uid: string): Promise<TOfflineVersion[]> => options.versions ?? []),
    saveOfflineReport: vi.fn(
      async (save: { studyInstanceUid: string; name: string; content: string; signOff: boolean }) =>
        report({ ...save, localVersion: 2, signedOff: save.signOff }),
    ),
    resolveOfflineConflict: vi.fn(async (choice: { studyInstanceUid: string; action: string }) =>
      report({
        state: 'CONFLICT',
        reason: 'This report was saved elsewhere',
        resolution: {
          action: choice.action === 'ADDENDUM' ? 'ADDENDUM' : 'KEEP_CLOUD',
          state: 'QUEUED',
          at: '2026-11-27T11:00:00.000Z',
        },
      }),
    ),
  } satisfies RouterClient;
  return client;
}

describe('the hybrid study list (issue 27 §4)', () => {
  it('lists the router’s studies with the cloud row id once known and each offline report’s state', async () => {
    const client = fakeRouter({
      studies: [
        study(),
        study({
          studyInstanceUid: '1.2.4',
          patientName: 'ROE^RICHARD',
          reportStatusId: 41,
          uploaded: true,
          report: report({ studyInstanceUid: '1.2.4', state: 'SYNCED', reportStatusId: 41, signedOff: true }),
        }),
        study({
          studyInstanceUid: '1.2.5',
          patientName: 'POE^EDGAR',
          report: report({
            studyInstanceUid: '1.2.5',
            state: 'CONFLICT',
            reason: 'The study was taken by another doctor in the cloud meanwhile',
          }),
        }),
      ],
    });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    await screen.findByText('DOE^JANE');
    const table = screen.getByRole('table', { name: 'Hybrid study list' });
    // The header row and the filter row come first.
    const rows = within(table).getAllByRole('row').slice(2);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('DOE^JANE')).toBeTruthy();
    expect(within(rows[0]!).getByText(HYBRID_STATE_LABELS.NONE)).toBeTruthy();
    expect(within(rows[1]!).getByText('41')).toBeTruthy();
    expect(within(rows[1]!).getByText(HYBRID_STATE_LABELS.SYNCED)).toBeTruthy();
    expect(within(rows[2]!).getByText(HYBRID_STATE_LABELS.CONFLICT)).toBeTruthy();
    expect(
      within(rows[2]!).getByText('The study was taken by another doctor in the cloud meanwhile'),
    ).toBeTruthy();
  });

  it('filters by patient and shows the spec’s empty state when nothing matches', async () => {
    const client = fakeRouter({ studies: [study()] });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    await screen.findByText('DOE^JANE');
    fireEvent.change(screen.getByLabelText('Filter Patient'), { target: { value: 'nobody' } });
    expect(screen.getByText('No result found')).toBeTruthy();
    expect(screen.getByText('We could not find what you searched for.')).toBeTruthy();
    expect(screen.getByText('You can try clearing all the filter.')).toBeTruthy();
  });

  it('asks for the router sign-in first, with the e-mail when the app is served by the router', async () => {
    const client = fakeRouter({ signedIn: false, studies: [study()] });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={null} />);
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: EMAIL } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in to router' }));
    await waitFor(() => expect(client.login).toHaveBeenCalledWith({ email: EMAIL, password: 'pw' }));
    expect(await screen.findByText('DOE^JANE')).toBeTruthy();
  });

  it('saves a report on the router from the version it opened, and signs it off', async () => {
    const client = fakeRouter({ studies: [study({ report: report() })] });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Report name') as HTMLInputElement).value).toBe('CT Head');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign off' }));
    await waitFor(() =>
      expect(client.saveOfflineReport).toHaveBeenCalledWith({
        studyInstanceUid: '1.2.3',
        name: 'CT Head',
        content: '<p>No bleed.</p>',
        signOff: true,
        baseLocalVersion: 1,
      }),
    );
  });

  it('offers the templates the router kept, those that fit the study, and inserts the chosen one', async () => {
    const client = fakeRouter({
      studies: [study()],
      templates: [
        TEMPLATE({}),
        TEMPLATE({ id: 2, name: 'MR Knee normal', content: '<p>Menisci intact.</p>', modalities: ['MR'] }),
      ],
    });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Templates' }));
    const chooser = await screen.findByRole('dialog', { name: 'Insert a template' });
    const list = await within(chooser).findByRole('list', { name: 'Template list' });
    // A CT study: the MR template does not fit it.
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('CT Head normal')]);
    fireEvent.click(within(list).getByRole('button', { name: /CT Head normal/ }));
    fireEvent.click(within(chooser).getByRole('button', { name: 'Insert' }));
    const editor = within(dialog).getByRole('textbox', { name: 'Report' });
    await waitFor(() => expect(editor.textContent).toContain('No acute intracranial abnormality.'));
    // Widened to every template: both.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Templates' }));
    const again = await screen.findByRole('dialog', { name: 'Insert a template' });
    fireEvent.click(within(again).getByLabelText('Only for this study'));
    const all = await within(again).findByRole('list', { name: 'Template list' });
    await waitFor(() => expect(within(all).getAllByRole('button')).toHaveLength(2));
  });

  it('shows a conflicted report read-only with the cloud’s reason', async () => {
    const reason = 'This report was saved elsewhere after you opened it';
    const client = fakeRouter({ studies: [study({ report: report({ state: 'CONFLICT', reason }) })] });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(reason, { exact: false })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('opens the study’s images from the router’s DICOMweb with the router session', async () => {
    const client = fakeRouter({ studies: [study()] });
    const seriesUid = '1.2.3.4';
    const instance = (sop: string, n: number) => ({
      '00080018': { vr: 'UI', Value: [sop] },
      '00200013': { vr: 'IS', Value: [n] },
      '00280010': { vr: 'US', Value: [64] },
    });
    client.dicomJson.mockImplementation(async (url: string) =>
      url.endsWith('/series')
        ? [{ '0020000E': { vr: 'UI', Value: [seriesUid] }, '00080060': { vr: 'CS', Value: ['CT'] } }]
        : [instance('1.9.2', 2), instance('1.9.1', 1)],
    );
    const createObjectURL = vi.fn(() => 'blob:frame');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Images DOE^JANE' }));
    const dialog = await screen.findByRole('dialog');
    const image = await within(dialog).findByRole('img', { name: 'Image 1 of 2' });
    expect(image.getAttribute('src')).toBe('blob:frame');
    expect(client.dicomJson).toHaveBeenCalledWith('http://localhost:8090/api/dicomweb/studies/1.2.3/series');
    // Instance Number order: the first image is instance 1.9.1, rendered by the router.
    expect(client.image).toHaveBeenCalledWith(
      expect.stringMatching(
        /^http:\/\/localhost:8090\/api\/dicomweb\/studies\/1\.2\.3\/series\/1\.2\.3\.4\/instances\/1\.9\.1\/frames\/1\/rendered\?viewport=/,
      ),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next image' }));
    await within(dialog).findByRole('img', { name: 'Image 2 of 2' });
    vi.unstubAllGlobals();
  });

  it('resolves a conflict from the report dialog: two choices, each confirmed, the result shown', async () => {
    const conflict = report({ state: 'CONFLICT', reason: 'This report was saved elsewhere' });
    for (const [button, action, result] of [
      ['Keep the cloud’s report', 'KEEP_CLOUD', 'Keeping the cloud’s report'],
      ['Send mine as an addendum', 'ADDENDUM', 'Sending yours as an addendum'],
    ] as const) {
      const client = fakeRouter({ studies: [study({ report: conflict })] });
      const view = renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.click(within(dialog).getByRole('button', { name: button }));
      // Nothing is sent before the confirm.
      expect(client.resolveOfflineConflict).not.toHaveBeenCalled();
      fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
      await waitFor(() =>
        expect(client.resolveOfflineConflict).toHaveBeenCalledWith({ studyInstanceUid: '1.2.3', action }),
      );
      expect(await screen.findByText(new RegExp(result))).toBeTruthy();
      view.unmount();
    }
  });
  describe('text typed and not saved is kept on this device (nothing typed is ever lost)', () => {
    beforeEach(() => window.localStorage.clear());
    const KEY = offlineDraftKey('http://localhost:8090', '1.2.3', EMAIL);
    const nameField = (dialog: HTMLElement) =>
      within(dialog).getByLabelText('Report name') as HTMLInputElement;
    /** Once the list knows whose router session it is (the copies are that user's). */
    const openReport = async () => {
      await screen.findByText(/Signed in to the router as/);
      fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
      return screen.findByRole('dialog');
    };

    it('is back at the next opening after a close without saving; a save clears it', async () => {
      const client = fakeRouter({ studies: [study({ report: report() })] });
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      let dialog = await openReport();
      fireEvent.change(nameField(dialog), { target: { value: 'CT Head with contrast' } });
      expect(within(dialog).getByText('Not saved on the router yet — kept on this device')).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

      dialog = await openReport();
      expect(nameField(dialog).value).toBe('CT Head with contrast');
      expect(within(dialog).getByText(/Restored the text you typed on this device/)).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() =>
        expect(client.saveOfflineReport).toHaveBeenCalledWith(
          expect.objectContaining({ name: 'CT Head with contrast', baseLocalVersion: 1 }),
        ),
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(readDraftAt(KEY)).toBeNull();
    });

    it('goes to the router too, and comes back from it on a device that has no copy', async () => {
      const client = fakeRouter({ studies: [study({ report: report() })] });
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      const dialog = await openReport();
      fireEvent.change(nameField(dialog), { target: { value: 'CT Head, typed on PC 1' } });
      // Closing sends what waited for the typing to rest.
      fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() =>
        expect(client.saveOfflineDraft).toHaveBeenCalledWith({
          studyInstanceUid: '1.2.3',
          name: 'CT Head, typed on PC 1',
          content: '<p>No bleed.</p>',
          baseVersion: 1,
        }),
      );

      // Another PC of the center: no copy on its device, the router's comes back.
      window.localStorage.clear();
      client.offlineDraft.mockResolvedValue({
        name: 'CT Head, typed on PC 1',
        content: '<p>No bleed.</p>',
        baseVersion: 1,
        updatedAt: '2026-11-27T10:40:00.000Z',
      });
      const again = await openReport();
      expect(nameField(again).value).toBe('CT Head, typed on PC 1');
      expect(within(again).getByText(/Restored the text you typed on the router/)).toBeTruthy();
      fireEvent.click(within(again).getByRole('button', { name: 'Discard it' }));
      expect(nameField(again).value).toBe('CT Head');
      await waitFor(() => expect(client.deleteOfflineDraft).toHaveBeenCalledWith('1.2.3'));
    });

    it('is discarded on request: the router’s text comes back and the copy is gone', async () => {
      writeDraftAt(KEY, {
        name: 'Typed name',
        content: '<p>Typed.</p>',
        baseVersion: 1,
        updatedAt: '2026-11-27T10:30:00.000Z',
      });
      const client = fakeRouter({ studies: [study({ report: report() })] });
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      const dialog = await openReport();
      await waitFor(() => expect(nameField(dialog).value).toBe('Typed name'));
      expect(within(dialog).getByRole('textbox', { name: 'Report' }).textContent).toContain('Typed.');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Discard it' }));
      expect(nameField(dialog).value).toBe('CT Head');
      await waitFor(() =>
        expect(within(dialog).getByRole('textbox', { name: 'Report' }).textContent).toContain('No bleed.'),
      );
      expect(readDraftAt(KEY)).toBeNull();
    });

    it('is offered, not taken, when the router has a newer version than the one it was typed on', async () => {
      writeDraftAt(KEY, {
        name: 'Typed on v1',
        content: '<p>Old.</p>',
        baseVersion: 1,
        updatedAt: '2026-11-27T10:30:00.000Z',
      });
      const client = fakeRouter({
        studies: [study({ report: report({ localVersion: 2, name: 'CT Head v2' }) })],
      });
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      const dialog = await openReport();
      expect(nameField(dialog).value).toBe('CT Head v2');
      expect(
        within(dialog).getByText(/from an earlier version: the router now has a newer one/),
      ).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Restore it' }));
      expect(nameField(dialog).value).toBe('Typed on v1');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      // The doctor chose it over version 2: saved from version 2, not a stale base.
      await waitFor(() =>
        expect(client.saveOfflineReport).toHaveBeenCalledWith(
          expect.objectContaining({ name: 'Typed on v1', content: '<p>Old.</p>', baseLocalVersion: 2 }),
        ),
      );
    });

    it('follows the user who signs in after another one’s router session ended at the open screen', async () => {
      const client = fakeRouter({ studies: [study({ report: report() })] });
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      let dialog = await openReport();
      // Dr Hybrid saves; the list's refresh finds the router session gone.
      client.hasSession = () => false;
      client.hybridStudies.mockRejectedValueOnce(new Error('The router session ended'));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'other@radflow.example' } });
      // What Dr Hybrid left unsaved on this computer meanwhile.
      writeDraftAt(KEY, {
        name: 'Dr Hybrid’s unsaved',
        content: '<p>Private.</p>',
        baseVersion: 1,
        updatedAt: '2026-11-27T10:30:00.000Z',
      });
      fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'pw' } });
      client.hasSession = () => true;
      fireEvent.click(screen.getByRole('button', { name: 'Sign in to router' }));
      await screen.findByText(/Signed in to the router as other@radflow\.example/);
      fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
      dialog = await screen.findByRole('dialog');
      expect(nameField(dialog).value).toBe('CT Head');
      expect(within(dialog).queryByText(/Restored the text/)).toBeNull();
      expect(readDraftAt(KEY)?.name).toBe('Dr Hybrid’s unsaved');
    });

    it('is never shown to another user signed in to the router on this computer', async () => {
      writeDraftAt(KEY, {
        name: 'Someone else’s',
        content: '<p>Private.</p>',
        baseVersion: 1,
        updatedAt: '2026-11-27T10:30:00.000Z',
      });
      const client = fakeRouter({
        studies: [study({ report: report() })],
        sessionEmail: 'other@radflow.example',
      });
      // The cloud page is EMAIL's; the router session is another doctor's.
      renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
      await screen.findByText(/Signed in to the router as other@radflow\.example/);
      const dialog = await openReport();
      expect(nameField(dialog).value).toBe('CT Head');
      expect(within(dialog).queryByText(/Restored the text/)).toBeNull();
      expect(readDraftAt(KEY)?.name).toBe('Someone else’s');
    });
  });
  it('opens a study in the diagnostic viewer on the router’s own page, and only there', async () => {
    // The page the router serves carries its meta tag (core ROUTER_SERVED_META).
    const meta = document.createElement('meta');
    meta.name = ROUTER_SERVED_META.name;
    meta.content = ROUTER_SERVED_META.content;
    document.head.append(meta);
    const served = { ...fakeRouter({ studies: [study()] }), baseUrl: window.location.origin };
    const view = renderRoutes(
      [
        { path: '/hybrid-study-list', element: <HybridStudyListScreen client={served} knownEmail={null} /> },
        { path: '/offline-viewer/:uid', element: <p>viewer page</p> },
      ],
      '/hybrid-study-list',
    );
    await screen.findByText('DOE^JANE');
    fireEvent.click(screen.getByRole('button', { name: 'Viewer DOE^JANE' }));
    await screen.findByText('viewer page');
    expect(view.router.state.location.pathname).toBe(offlineViewerPath(study().studyInstanceUid));
    view.unmount();
    meta.remove();

    // From the cloud's page the router is another origin: its images need the cloud's own viewer.
    renderScreen(<HybridStudyListScreen client={fakeRouter({ studies: [study()] })} knownEmail={EMAIL} />);
    await screen.findByText('DOE^JANE');
    expect(screen.getByRole('button', { name: 'Images DOE^JANE' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Viewer DOE^JANE' })).toBeNull();
  });
  it('lists the versions the router keeps of a report, and compares two of them', async () => {
    const version = (n: number, state: TOfflineVersion['state'], content: string): TOfflineVersion => ({
      localVersion: n,
      name: 'CT Head',
      content,
      signedOff: false,
      authorEmail: EMAIL,
      authorName: 'Dr Hybrid',
      writtenAt: `2026-11-27T10:0${n}:00.000Z`,
      state,
      cloudVersion: state === 'IN_CLOUD' || state === 'FROM_CLOUD' ? n + 10 : null,
    });
    const client = fakeRouter({
      studies: [study({ report: report({ localVersion: 3, state: 'SYNCED' }) })],
      versions: [
        version(1, 'SET_ASIDE', '<p>Mine.</p>'),
        version(2, 'FROM_CLOUD', '<p>Small bleed.</p>'),
        version(3, 'WAITING', '<p>Small bleed, stable.</p>'),
      ],
    });
    renderScreen(<HybridStudyListScreen client={client} knownEmail={EMAIL} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report DOE^JANE' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Versions' }));
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(client.offlineVersions).toHaveBeenCalledWith(study().studyInstanceUid);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual([
      'Set aside by the resolution, never sent',
      'The cloud’s text, kept when the conflict was resolved',
      'Saved on the router, not sent yet',
    ]);
    // By default the two newest of the report itself, not the text set aside.
    expect(screen.getByRole('region', { name: 'Older: v2' }).textContent).toContain('Small bleed');
    const newer = screen.getByRole('region', { name: 'Newer: v3' });
    expect(newer.querySelector('ins')?.textContent).toContain('stable.');
  });
});
