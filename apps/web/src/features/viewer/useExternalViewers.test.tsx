import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply } from '../../test/fake-api';
import { fakeXhr } from '../../test/fake-xhr';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { useExternalViewers } from './useExternalViewers';

const study = { id: 42, studyInstanceUid: '1.2.42', patientName: 'Jane Doe' };
const linkAnswer: TFakeReply = {
  body: {
    data: {
      zipUrl: { downloadUrl: '/api/dicom-web/zip-v2/download/tok', expiresAt: '2026-01-01T00:15:00.000Z' },
    },
  },
};

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function Harness({ launch }: { launch: (url: string) => void }) {
  const external = useExternalViewers(study, launch);
  return (
    <>
      {external.viewers.map((viewer) => (
        <button key={viewer} type="button" onClick={() => external.open(viewer)}>
          {viewer}
        </button>
      ))}
      {external.dialog}
    </>
  );
}

const render = (launch: (url: string) => void) =>
  renderScreen(
    <SignedIn>
      <Harness launch={launch} />
    </SignedIn>,
  );

describe('Open in RadiAnt / Horos (issue 5 §4)', () => {
  let saves: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:zip'), revokeObjectURL: vi.fn() }),
    );
    saves = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the download folder of the study table setting and starts no download without it', async () => {
    const api = fakeApi({ ...sessionHandlers(buildUser(['ROLE_DOCTOR'])) });
    const launch = vi.fn();
    render(launch);
    fireEvent.click(await screen.findByRole('button', { name: 'RADIANT' }));
    expect(await screen.findByText('Please add path to download folder in Study Table setting')).toBeTruthy();
    expect(api.calls('POST', '/api/batch/run')).toHaveLength(0);
    expect(launch).not.toHaveBeenCalled();
    // Horos is offered only with the group's openInHoros.
    expect(screen.queryByRole('button', { name: 'HOROS' })).toBeNull();
  });

  it('downloads the zip, then starts RadiAnt on the saved file in the folder, not before 2 s', async () => {
    const prefs = buildPreferences((p) => {
      p.UI_REPORT_TABLE_PREFERENCES.openInRadiantPath = 'C:\\Studies';
      p.GROUP_SWITCHES.openInHoros = true;
    });
    const api = fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR']), prefs),
      'POST /api/batch/run': { body: { jobStatus: 'COMPLETED', error: null } },
      'GET /api/dicom-web/zip-v2/complete/studies/link/42': linkAnswer,
    });
    fakeXhr(() => Promise.resolve({ blob: new Blob([new Uint8Array(8)]), download: [[8, 8]] }));
    const launch = vi.fn();
    render(launch);
    expect(await screen.findByRole('button', { name: 'HOROS' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'RADIANT' }));
    // The file is saved first; the viewer waits for the rest of the 2 s after the start.
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    expect(launch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_100);
    await waitFor(() => expect(launch).toHaveBeenCalledTimes(1));
    expect(launch.mock.calls[0]![0]).toMatch(/^radiant:\/\/\?n=f&v=C%3A%5CStudies%5C42_\d+\.zip$/);
    expect(api.calls('POST', '/api/batch/run')).toHaveLength(1);
  });
});
