import { REPORTING_MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
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

/*
 * issue 21 §7: two tabs of the same doctor. Every save (and every auto-saved draft) carries the
 * version its text started from; a stale save gets the server's 409 and the editor asks: reload the
 * saved report, or keep mine (saved again from the newest version: a new version, nothing lost).
 */

const SCREEN = { timeout: 20_000 };
const me = 'doc@demo.local';
const reported = buildDetail({ status: 'REPORTED', lockedBy: me });
const v3 = buildReport([buildVersion({ version: 3, content: '<p>Version three.</p>' })]);
/** What the other tab saved meanwhile (same doctor, another tab). */
const v4 = buildReport([
  buildVersion({ version: 3, content: '<p>Version three.</p>' }),
  buildVersion({ version: 4, content: '<p>Other tab.</p>', savedAt: '2026-11-21T10:30:00.000Z' }),
]);
const stale = {
  status: 409,
  body: { ...errorBody(409, REPORTING_MESSAGES.savedElsewhere), additionalInfo: 'baseVersion' },
};

type THandler = TFakeReply | ((r: TRecordedRequest) => TFakeReply);
const handlers = (extra: Record<string, THandler> = {}) => ({
  ...sessionHandlers(buildUser(['ROLE_DOCTOR'], { email: me })),
  [`GET /api/report-status/id/${ROW_ID}`]: { body: reported },
  [`GET /api/report/${ROW_ID}`]: reportsBody([v3]),
  [`POST /api/report/lock/${ROW_ID}`]: { body: reported },
  [`GET /api/report/draft/${ROW_ID}`]: { body: null },
  [`PUT /api/report/draft/${ROW_ID}`]: (request: TRecordedRequest) => ({
    body: { ...request.json<object>(), updatedAt: new Date().toISOString() },
  }),
  [`DELETE /api/report/draft/${ROW_ID}`]: { body: { ok: true } },
  ...extra,
});

/** Answers each save in turn; the reports read after the first call show the other tab's version. */
function saves(...replies: TFakeReply[]) {
  let n = 0;
  return () => replies[Math.min(n++, replies.length - 1)] as TFakeReply;
}

describe('saving carries the version it started from', SCREEN, () => {
  it('sends the opened version, then the version each save answers (saves and auto-saved drafts)', async () => {
    const api = fakeApi(
      handlers({
        [`POST /api/report/save/${ROW_ID}`]: saves(
          { body: { ...reported, alert: null, savedVersion: 4 } },
          { body: { ...reported, alert: null, savedVersion: 5 } },
        ),
      }),
    );
    renderEditor();
    await typeReport('<p>First edit.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await screen.findByText('Report saved');
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)[0]?.json()).toMatchObject({ baseVersion: 3 });

    await typeReport('<p>Second edit.</p>');
    // The auto-saved draft builds on the version the save answered.
    await waitFor(() =>
      expect(api.calls('PUT', `/api/report/draft/${ROW_ID}`).at(-1)?.json()).toMatchObject({
        content: '<p>Second edit.</p>',
        baseVersion: 4,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST', `/api/report/save/${ROW_ID}`)).toHaveLength(2));
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)[1]?.json()).toMatchObject({ baseVersion: 4 });
  });
});

describe('a stale save (another tab saved meanwhile)', SCREEN, () => {
  it('asks; Keep mine saves my text again from the newest version', async () => {
    let reports = [v3];
    const api = fakeApi(
      handlers({
        [`GET /api/report/${ROW_ID}`]: () => reportsBody(reports),
        [`POST /api/report/save/${ROW_ID}`]: saves(stale, {
          body: { ...reported, alert: null, savedVersion: 5 },
        }),
      }),
    );
    renderEditor();
    await editorOf();
    reports = [v4];
    await typeReport('<p>My tab.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'This report was saved elsewhere' });
    expect(dialog.textContent).toContain('version 4');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep mine as a new version' }));
    await screen.findByText('Report saved');
    const [first, second] = api.calls('POST', `/api/report/save/${ROW_ID}`);
    expect(first?.json()).toMatchObject({ content: '<p>My tab.</p>', baseVersion: 3 });
    expect(second?.json()).toMatchObject({ content: '<p>My tab.</p>', baseVersion: 4, signOff: false });
    expect((await editorOf()).getHTML()).toBe('<p>My tab.</p>');
  });

  it('asks; Reload shows the saved report and the next save starts from it', async () => {
    let reports = [v3];
    const api = fakeApi(
      handlers({
        [`GET /api/report/${ROW_ID}`]: () => reportsBody(reports),
        [`POST /api/report/save/${ROW_ID}`]: saves(stale, {
          body: { ...reported, alert: null, savedVersion: 5 },
        }),
      }),
    );
    renderEditor();
    await editorOf();
    reports = [v4];
    await typeReport('<p>My tab.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'This report was saved elsewhere' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reload the saved report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const editor = await editorOf();
    await waitFor(() => expect(editor.getHTML()).toBe('<p>Other tab.</p>'));
    // Only one save went out: reloading writes nothing.
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)).toHaveLength(1);

    await typeReport('<p>Other tab, amended.</p>');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Report saved');
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)[1]?.json()).toMatchObject({ baseVersion: 4 });
  });
});
