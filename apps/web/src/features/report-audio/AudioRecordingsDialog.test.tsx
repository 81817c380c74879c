import { AUDIO_ATTACHED_MESSAGE, type TReportAudio, type TRole } from '@radflow/core';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { buildStudyRow } from '../../test/study-row';
import { StudyRowActions } from '../study-actions/StudyRowActions';
import { AudioRecordingsDialog, CONFIRM_DELETE_AUDIO } from './AudioRecordingsDialog';
import { RECORDER_MESSAGES } from './useRecorder';

const SLOW = { timeout: 20_000 };
// The first answers arrive after the session loads; on a busy machine that takes more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

/** MediaRecorder as jsdom lacks it: start/stop with one chunk of data, as a browser gives on stop. */
class FakeMediaRecorder extends EventTarget {
  static instances: FakeMediaRecorder[] = [];
  static isTypeSupported = (type: string) => type === 'audio/webm';
  state: 'inactive' | 'recording' = 'inactive';
  readonly mimeType: string;
  constructor(
    readonly stream: MediaStream,
    options?: { mimeType?: string },
  ) {
    super();
    this.mimeType = options?.mimeType ?? '';
    FakeMediaRecorder.instances.push(this);
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    const data = Object.assign(new Event('dataavailable'), {
      data: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm' }),
    });
    this.dispatchEvent(data);
    this.dispatchEvent(new Event('stop'));
  }
}

const track = { stop: vi.fn() };
const getUserMedia = vi.fn(async () => ({ getTracks: () => [track] }) as unknown as MediaStream);

beforeEach(() => {
  FakeMediaRecorder.instances = [];
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  URL.createObjectURL = vi.fn(() => 'blob:recording');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const ROW = { id: 42, status: 'REPORTED' as const, centerId: 3, patientName: 'DOE^JANE' };

function note(audioId: number, createdBy: string): TReportAudio {
  return {
    audioId,
    audioUrl: `/api/report-audio/file/42/${audioId}`,
    contentType: 'audio/webm',
    byteSize: 7,
    durationMs: 65_000,
    createdBy,
    createdByName: null,
    createdAt: '2026-01-01T10:00:00.000Z',
  };
}

function renderDialog(
  roles: TRole[],
  handlers: Record<string, TFakeReply | ((r: TRecordedRequest) => TFakeReply)>,
) {
  const user = buildUser(roles, { centerId: 3 });
  const api = fakeApi({ ...sessionHandlers(user), ...handlers });
  const onClose = vi.fn();
  renderScreen(
    <SignedIn>
      <AudioRecordingsDialog row={ROW} onClose={onClose} />
    </SignedIn>,
  );
  return { api, user };
}

describe('AudioRecordingsDialog', () => {
  it(
    'records, attaches (Audio attached), lists the note, and deletes it after the confirm',
    SLOW,
    async () => {
      const stored: TReportAudio[] = [];
      let email = '';
      const { api, user } = renderDialog(['ROLE_DOCTOR'], {
        'GET /api/report-audio/fetch-audio/42': () => ({ body: stored }),
        'POST /api/report-audio/save-audio/42': () => {
          const saved = note(5, email);
          stored.push(saved);
          return { body: saved };
        },
        'DELETE /api/report-audio/delete-audio/42/5': () => {
          stored.splice(0);
          return { body: { ok: true } };
        },
      });
      email = user.email;
      expect(await screen.findByText('No audio notes yet.')).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Record' }));
      const stop = await screen.findByRole('button', { name: 'Stop' });
      expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
      expect(screen.getByRole('timer', { name: 'Elapsed time' }).textContent).toBe('0:00');
      expect(FakeMediaRecorder.instances[0]?.mimeType).toBe('audio/webm');
      fireEvent.click(stop);

      expect(await screen.findByLabelText('New recording')).toBeTruthy();
      expect(track.stop).toHaveBeenCalled();
      fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
      expect(await screen.findByText(AUDIO_ATTACHED_MESSAGE)).toBeTruthy();
      expect(api.calls('POST', '/api/report-audio/save-audio/42')).toHaveLength(1);
      const player = await screen.findByLabelText('Audio note 5');
      expect(player.getAttribute('src')).toBe('/api/report-audio/file/42/5');
      expect(screen.getByText(/1:05/)).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Delete audio note 5' }));
      let confirm = await screen.findByRole('dialog', { name: 'Delete audio note' });
      expect(within(confirm).getByText(CONFIRM_DELETE_AUDIO)).toBeTruthy();
      fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete audio note' })).toBeNull());
      expect(api.calls('DELETE', '/api/report-audio/delete-audio/42/5')).toHaveLength(0);

      fireEvent.click(screen.getByRole('button', { name: 'Delete audio note 5' }));
      confirm = await screen.findByRole('dialog', { name: 'Delete audio note' });
      fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('No audio notes yet.')).toBeTruthy();
      expect(api.calls('DELETE', '/api/report-audio/delete-audio/42/5')).toHaveLength(1);
    },
  );

  it('lets a read-only role listen only: no Record, no Delete', SLOW, async () => {
    renderDialog(['ROLE_REFERRING_DOCTOR'], {
      'GET /api/report-audio/fetch-audio/42': { body: [note(9, 'doctor@demo.local')] },
    });
    expect(await screen.findByLabelText('Audio note 9')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Record' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete audio note 9' })).toBeNull();
  });

  it(
    "shows another user's note without Delete to a doctor, and a blocked microphone clearly",
    SLOW,
    async () => {
      getUserMedia.mockRejectedValueOnce(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
      renderDialog(['ROLE_DOCTOR'], {
        'GET /api/report-audio/fetch-audio/42': { body: [note(9, 'someone@demo.local')] },
      });
      expect(await screen.findByLabelText('Audio note 9')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Delete audio note 9' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Record' }));
      expect(await screen.findByText(RECORDER_MESSAGES.micBlocked)).toBeTruthy();
    },
  );
});

describe('the study row action', () => {
  it("opens the audio recordings dialog from a row's menu", SLOW, async () => {
    const row = buildStudyRow({ status: 'REPORTED', centerId: 3 });
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR'])),
      [`GET /api/report-audio/fetch-audio/${row.id}`]: { body: [] },
    });
    renderScreen(
      <SignedIn>
        <StudyRowActions row={row} listKind="doctor" onChanged={() => undefined} />
      </SignedIn>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'More actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Audio recordings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Audio recordings' }, { timeout: 10_000 });
    expect(await within(dialog).findByText('No audio notes yet.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Record' })).toBeTruthy();
  });
});
