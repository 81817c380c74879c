import { REPORTING_MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
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
 * issue 21 §7: after sign-off the editor said 'Locked by …' and kept an active Sign off button. Its
 * state follows the row: signed off, it names the signature, not a lock; a re-sign-off (spec-core §4)
 * is offered as such — 'Sign off again', once the text differs from the signed one — or not at all
 * when disableReSignOffOfReport is on.
 */

const SCREEN = { timeout: 20_000 };
const me = 'doc@demo.local';
const locked = buildDetail({ status: 'LOCKED', lockedBy: me });
const signedRow = buildDetail({
  status: 'SIGNED_OFF',
  lockedBy: me,
  signedOffAt: '2026-11-21T10:00:00.000Z',
  firstSignedOffAt: '2026-11-21T10:00:00.000Z',
});
const signedReport = buildReport(
  [buildVersion({ kind: 'SIGN_OFF', content: '<p>Normal study.</p>', savedAt: '2026-11-21T10:00:00.000Z' })],
  {
    signedOffBy: me,
    signature: { name: 'Dr Doc, MD', imageAssetId: null, signedOffAt: '2026-11-21T10:00:00.000Z' },
  },
);
const statusLine = () => screen.getByTestId('report-status-line').textContent ?? '';

function signingOff(reSignOffDisabled: boolean) {
  let reports: unknown[] = [];
  const prefs = buildPreferences((p) => {
    p.USER_ADMIN_VISIBLE_PREFERENCES.disableReSignOffOfReport = reSignOffDisabled;
  });
  return fakeApi({
    ...sessionHandlers(buildUser(['ROLE_DOCTOR'], { email: me }), prefs),
    [`GET /api/report-status/id/${ROW_ID}`]: { body: buildDetail() },
    [`GET /api/report/${ROW_ID}`]: () => reportsBody(reports as never),
    [`POST /api/report/lock/${ROW_ID}`]: { body: locked },
    [`GET /api/report/draft/${ROW_ID}`]: { body: null },
    [`PUT /api/report/draft/${ROW_ID}`]: (request) => ({
      body: { ...request.json<object>(), updatedAt: new Date().toISOString() },
    }),
    [`POST /api/report/save/${ROW_ID}`]: () => {
      reports = [signedReport];
      return { body: { ...signedRow, alert: null, savedVersion: 1 } };
    },
  });
}

async function signOffInEditor() {
  await typeReport('<p>Normal study.</p>');
  fireEvent.click(await screen.findByRole('button', { name: 'Sign off' }));
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign off' }));
  await screen.findByText('Report signed off');
  await waitFor(() => expect(statusLine()).toContain('Signed off by Dr Doc, MD'));
}

describe('the editor after sign-off follows the row', SCREEN, () => {
  it('names the signature, not a lock, and offers re-sign-off only for a changed text', async () => {
    signingOff(false);
    renderEditor();
    expect(await screen.findByText(/Locked by doc@demo\.local/)).toBeTruthy();
    await signOffInEditor();

    expect(statusLine()).toContain('Status: SIGNED_OFF');
    expect(statusLine()).not.toContain('Locked by');
    // Nothing to sign off again until the signed text changes.
    expect(screen.queryByRole('button', { name: 'Sign off' })).toBeNull();
    const again = screen.getByRole('button', { name: 'Sign off again' });
    expect(again.hasAttribute('disabled')).toBe(true);
    await typeReport('<p>Normal study. Small cyst.</p>');
    await waitFor(() => expect(again.hasAttribute('disabled')).toBe(false));
  });

  it('with re-sign-off disabled: no sign-off button, the text read-only, and the reason shown', async () => {
    signingOff(true);
    renderEditor();
    await signOffInEditor();

    expect(statusLine()).not.toContain('Locked by');
    expect(screen.queryByRole('button', { name: 'Sign off' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign off again' })).toBeNull();
    expect((await editorOf()).isEditable).toBe(false);
    expect(screen.getByText(REPORTING_MESSAGES.reSignOffDisabled)).toBeTruthy();
  });
});
