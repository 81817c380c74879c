import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { localDraftKey } from './local-drafts';
import {
  ROW_ID,
  buildDetail,
  buildReport,
  buildVersion,
  editorOf,
  renderEditor,
  reportsBody,
  typeReport,
} from './report-editor-test-kit';

const SCREEN = { timeout: 20_000 };
const me = 'doc@demo.local';
const locked = buildDetail({ status: 'LOCKED', lockedBy: me });
const draftReply = (request: TRecordedRequest): TFakeReply => ({
  body: { ...request.json<object>(), updatedAt: new Date().toISOString() },
});
const handlers = (extra: Record<string, TFakeReply | ((r: TRecordedRequest) => TFakeReply)> = {}) => ({
  ...sessionHandlers(buildUser(['ROLE_DOCTOR'], { email: me })),
  [`GET /api/report-status/id/${ROW_ID}`]: { body: buildDetail() },
  [`GET /api/report/${ROW_ID}`]: reportsBody([]),
  [`POST /api/report/lock/${ROW_ID}`]: { body: locked },
  [`GET /api/report/draft/${ROW_ID}`]: { body: null },
  [`PUT /api/report/draft/${ROW_ID}`]: draftReply,
  [`DELETE /api/report/draft/${ROW_ID}`]: { body: { ok: true } },
  ...extra,
});
const statusLine = () => screen.getByTestId('report-status-line').textContent ?? '';

describe('auto-save (issue 7 §1: nothing typed is lost)', SCREEN, () => {
  it('keeps every change on the device at once, sends the draft to the server, and restores it after a remount', async () => {
    const api = fakeApi(handlers());
    const first = renderEditor();
    await typeReport('<p>Typed before the reload.</p>');
    const kept = JSON.parse(window.localStorage.getItem(localDraftKey(ROW_ID, me)) ?? 'null') as {
      content: string;
    } | null;
    expect(kept?.content).toBe('<p>Typed before the reload.</p>');
    await waitFor(() => expect(api.calls('PUT', `/api/report/draft/${ROW_ID}`)).toHaveLength(1));
    expect(api.calls('PUT', `/api/report/draft/${ROW_ID}`)[0]?.json()).toEqual({
      name: 'CT Chest',
      content: '<p>Typed before the reload.</p>',
      baseVersion: null,
    });
    await waitFor(() => expect(statusLine()).toContain('Saved'));

    // A reload: the server has no draft (it never arrived), the device copy brings the text back.
    first.unmount();
    renderEditor();
    expect((await editorOf()).getHTML()).toBe('<p>Typed before the reload.</p>');
  });

  it("says 'Offline — kept on this device' when the server cannot be reached, and sends it when back online", async () => {
    let online = false;
    const api = fakeApi(
      handlers({
        [`PUT /api/report/draft/${ROW_ID}`]: (request) => {
          if (!online) throw new TypeError('Failed to fetch');
          return draftReply(request);
        },
      }),
    );
    renderEditor();
    await typeReport('<p>Written on a train.</p>');
    await waitFor(() => expect(statusLine()).toContain('Offline — kept on this device'));
    online = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(statusLine()).toContain('Saved'));
    expect(api.calls('PUT', `/api/report/draft/${ROW_ID}`).at(-1)?.json()).toMatchObject({
      content: '<p>Written on a train.</p>',
    });
  });

  it('clears the device copy once the report is saved', async () => {
    fakeApi(
      handlers({
        [`POST /api/report/save/${ROW_ID}`]: {
          body: { ...locked, status: 'REPORTED', alert: null, savedVersion: 1 },
        },
      }),
    );
    renderEditor();
    await typeReport('<p>Final words.</p>');
    expect(window.localStorage.getItem(localDraftKey(ROW_ID, me))).not.toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText('Report saved');
    expect(window.localStorage.getItem(localDraftKey(ROW_ID, me))).toBeNull();
  });
});

describe('draft conflict: someone else saved after the draft began', SCREEN, () => {
  const savedByOther = buildReport([
    buildVersion({ version: 1, savedBy: me }),
    buildVersion({
      version: 2,
      content: '<p>Verifier wording.</p>',
      savedBy: 'verifier@demo.local',
      savedAt: '2026-11-21T11:00:00.000Z',
    }),
  ]);
  const myDraft = {
    name: 'CT Chest',
    content: '<p>My unsaved wording.</p>',
    baseVersion: 1,
    updatedAt: '2026-11-21T10:30:00.000Z',
  };
  const conflictHandlers = () =>
    handlers({
      [`GET /api/report/${ROW_ID}`]: reportsBody([savedByOther]),
      [`GET /api/report/draft/${ROW_ID}`]: { body: myDraft },
    });

  it('asks which to keep; keeping the draft opens it', async () => {
    fakeApi(conflictHandlers());
    renderEditor();
    const dialog = await screen.findByRole('dialog', { name: 'Which report do you want to keep?' });
    expect(dialog.textContent).toContain('verifier@demo.local');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my draft' }));
    expect((await editorOf()).getHTML()).toBe('<p>My unsaved wording.</p>');
  });

  it('using the saved report drops the draft on the server and on the device', async () => {
    window.localStorage.setItem(
      localDraftKey(ROW_ID, me),
      JSON.stringify({ ...myDraft, updatedAt: '2026-11-21T10:00:00.000Z' }),
    );
    const api = fakeApi(conflictHandlers());
    renderEditor();
    const dialog = await screen.findByRole('dialog', { name: 'Which report do you want to keep?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use the saved report' }));
    expect((await editorOf()).getHTML()).toBe('<p>Verifier wording.</p>');
    await waitFor(() => expect(api.calls('DELETE', `/api/report/draft/${ROW_ID}`)).toHaveLength(1));
    expect(window.localStorage.getItem(localDraftKey(ROW_ID, me))).toBeNull();
  });
});

describe('versions (issue 7 §2)', SCREEN, () => {
  it('lists every version and compares two side by side with the changes marked', async () => {
    const report = buildReport([
      buildVersion({ version: 1, content: '<p>Lungs are clear.</p>' }),
      buildVersion({
        version: 2,
        kind: 'SIGN_OFF',
        content: '<p>Lungs are hyperinflated.</p>',
        savedAt: '2026-11-21T10:00:00.000Z',
      }),
    ]);
    fakeApi(handlers({ [`GET /api/report/${ROW_ID}`]: reportsBody([report]) }));
    renderEditor();
    fireEvent.click(await screen.findByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report versions' });
    const rows = within(within(dialog).getByRole('table', { name: 'Versions' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'ReportVersionKindSaved bySaved at',
      expect.stringContaining('CT Chest1SavedDr Doc'),
      expect.stringContaining('CT Chest2Signed offDr Doc'),
    ]);
    const older = within(dialog).getByRole('region', { name: 'Older: v1' });
    const newer = within(dialog).getByRole('region', { name: 'Newer: v2' });
    expect(older.querySelector('del')?.textContent?.trim()).toBe('clear.');
    expect(newer.querySelector('ins')?.textContent?.trim()).toBe('hyperinflated.');
    expect(older.querySelector('ins')).toBeNull();
  });
});
