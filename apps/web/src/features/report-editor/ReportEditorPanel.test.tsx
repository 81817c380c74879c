import { REPORTING_MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi } from '../../test/fake-api';
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

/** The first render loads MUI and TipTap: give the screen time on a busy machine. */
const SCREEN = { timeout: 20_000 };

const doctor = () => buildUser(['ROLE_DOCTOR'], { email: 'doc@demo.local' });
const locked = buildDetail({ status: 'LOCKED', lockedBy: 'doc@demo.local' });
const base = (user = doctor()) => ({
  ...sessionHandlers(user),
  [`GET /api/report-status/id/${ROW_ID}`]: { body: buildDetail() },
  [`GET /api/report/${ROW_ID}`]: reportsBody([]),
  [`POST /api/report/lock/${ROW_ID}`]: { body: locked },
  [`GET /api/report/draft/${ROW_ID}`]: { body: null },
  [`PUT /api/report/draft/${ROW_ID}`]: {
    body: { name: '', content: '', baseVersion: null, updatedAt: '2026-11-21T10:00:00.000Z' },
  },
});

describe('ReportEditorPanel: opening (lock)', SCREEN, () => {
  it('locks the study on opening and lets the doctor write', async () => {
    const api = fakeApi(base());
    renderEditor();
    const editor = await editorOf();
    expect(editor.isEditable).toBe(true);
    expect(api.calls('POST', `/api/report/lock/${ROW_ID}`)).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
    // Nothing written yet: a sign-off would be refused ('Please write the report').
    expect(screen.getByRole('button', { name: 'Sign off' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('report-status-line').textContent).toContain('Locked by doc@demo.local');
    await typeReport('<p>Findings.</p>');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign off' }).hasAttribute('disabled')).toBe(false),
    );
  });

  it("shows the server's refusal and opens read-only when someone else holds the study", async () => {
    fakeApi({
      ...base(),
      [`GET /api/report/${ROW_ID}`]: reportsBody([
        buildReport([buildVersion({ savedBy: 'other@demo.local' })]),
      ]),
      [`POST /api/report/lock/${ROW_ID}`]: {
        status: 403,
        body: errorBody(403, REPORTING_MESSAGES.lockedByOther),
      },
    });
    renderEditor();
    expect(await screen.findByText('Study is locked by someone else')).toBeTruthy();
    const editor = await editorOf();
    expect(editor.isEditable).toBe(false);
    expect(editor.getHTML()).toBe('<p>Lungs are clear.</p>');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign off' })).toBeNull();
    // The client did not treat the 403 as an expired session.
    expect(window.location.pathname).toBe(`/report-edit/1.2.3/${ROW_ID}`);
  });

  it('shows a referring doctor the report read-only, without locking', async () => {
    const api = fakeApi({
      ...base(buildUser(['ROLE_REFERRING_DOCTOR'])),
      // As the server answers a reader (core reportsForReader): the signed report without versions.
      [`GET /api/report/${ROW_ID}`]: reportsBody([
        buildReport([], { content: '<p>Lungs are clear.</p>', signedOffBy: 'doc@demo.local' }),
      ]),
    });
    renderEditor();
    expect(await screen.findByText(REPORTING_MESSAGES.readOnly)).toBeTruthy();
    const editor = await editorOf();
    expect(editor.isEditable).toBe(false);
    await waitFor(() => expect(editor.getHTML()).toBe('<p>Lungs are clear.</p>'));
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(api.calls('POST', `/api/report/lock/${ROW_ID}`)).toHaveLength(0);
    expect(api.calls('GET', `/api/report/draft/${ROW_ID}`)).toHaveLength(0);
    // How the report was made is not theirs (core readsReportWork): no versions, no audio notes.
    expect(screen.queryByRole('button', { name: 'Versions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Audio recordings' })).toBeNull();
  });
});

describe('ReportEditorPanel: save and sign off', SCREEN, () => {
  it('saves what was typed and says so', async () => {
    const api = fakeApi({
      ...base(),
      [`POST /api/report/save/${ROW_ID}`]: {
        body: { ...locked, status: 'REPORTED', alert: null, savedVersion: 1 },
      },
    });
    renderEditor();
    await typeReport('<p>No effusion.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Report saved')).toBeTruthy();
    const [request] = api.calls('POST', `/api/report/save/${ROW_ID}`);
    expect(request?.json()).toEqual({
      name: 'CT Chest',
      content: '<p>No effusion.</p>',
      signOff: false,
      baseVersion: null,
    });
  });

  it('asks before signing off; Cancel sends nothing, Sign off sends the sign-off', async () => {
    const api = fakeApi({
      ...base(),
      [`POST /api/report/save/${ROW_ID}`]: {
        body: { ...locked, status: 'SIGNED_OFF', alert: null, savedVersion: 1 },
      },
    });
    renderEditor();
    await typeReport('<p>Normal study.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign off' }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Sign off' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign off' }));
    expect(await screen.findByText('Report signed off')).toBeTruthy();
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)[0]?.json()).toMatchObject({ signOff: true });
  });

  it("shows the spec's re-sign-off alert from the answer", async () => {
    fakeApi({
      ...base(),
      [`POST /api/report/save/${ROW_ID}`]: {
        body: { ...locked, status: 'SIGNED_OFF', alert: REPORTING_MESSAGES.signedOffAgain, savedVersion: 1 },
      },
    });
    renderEditor();
    await typeReport('<p>Revised.</p>');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign off' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign off' }));
    expect(
      await screen.findByText('Report has been Signed Off again, please ask center to re-print it.'),
    ).toBeTruthy();
  });

  it("gives a waiting report's verifier the Sign off, without locking", async () => {
    const waiting = buildReport([buildVersion({ kind: 'SAVE' })], { awaitingVerification: true });
    const api = fakeApi({
      ...base(buildUser(['ROLE_VERIFIER'])),
      [`GET /api/report-status/id/${ROW_ID}`]: {
        body: buildDetail({ status: 'REPORTED', lockedBy: 'doc@demo.local' }),
      },
      [`GET /api/report/${ROW_ID}`]: reportsBody([waiting]),
    });
    renderEditor();
    expect(await screen.findByRole('button', { name: 'Sign off' })).toBeTruthy();
    expect(screen.getByTestId('report-status-line').textContent).toContain('Awaiting verification');
    expect(api.calls('POST', `/api/report/lock/${ROW_ID}`)).toHaveLength(0);
  });
});

describe('ReportEditorPanel: the typist gate (spec-core §6)', SCREEN, () => {
  it('asks the typist for the doctor first, sends it as doctorEmail, and has no Sign off', async () => {
    const typist = buildUser(['ROLE_TYPIST'], { email: 'typist@demo.local' });
    const api = fakeApi({
      ...base(typist),
      'GET /api/user/mapping': { body: { ROLE_DOCTOR: [{ email: 'doc@demo.local', active: true }] } },
      [`POST /api/report/save/${ROW_ID}`]: {
        body: { ...locked, status: 'REPORTED', alert: null, savedVersion: 1 },
      },
    });
    renderEditor();
    expect(await screen.findByText(REPORTING_MESSAGES.chooseDoctor)).toBeTruthy();
    expect(api.calls('POST', `/api/report/lock/${ROW_ID}`)).toHaveLength(0);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Doctor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'doc@demo.local' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start typing' }));

    await typeReport('<p>Typed for the doctor.</p>');
    expect(api.calls('POST', `/api/report/lock/${ROW_ID}`)[0]?.json()).toEqual({
      doctorEmail: 'doc@demo.local',
    });
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign off' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Report saved');
    expect(api.calls('POST', `/api/report/save/${ROW_ID}`)[0]?.json()).toMatchObject({
      doctorEmail: 'doc@demo.local',
      signOff: false,
    });
  });
});

describe('ReportEditorPanel: addendum and key images', SCREEN, () => {
  it('lets the signing doctor add an addendum in its own editor', async () => {
    const signed = buildDetail({
      status: 'SIGNED_OFF',
      lockedBy: 'doc@demo.local',
      firstSignedOffAt: '2026-11-21T09:00:00.000Z',
    });
    const main = buildReport([buildVersion({ kind: 'SIGN_OFF' })], { signedOffBy: 'doc@demo.local' });
    const api = fakeApi({
      ...base(),
      [`GET /api/report-status/id/${ROW_ID}`]: { body: signed },
      [`POST /api/report/lock/${ROW_ID}`]: { body: signed },
      [`GET /api/report/${ROW_ID}`]: reportsBody([main]),
      [`POST /api/report/addendum/${ROW_ID}`]: { body: { ...signed, alert: null, savedVersion: 1 } },
    });
    renderEditor();
    // A signed-off report: its doctor may sign it off again (the group allows it) or add an addendum.
    expect(await screen.findByRole('button', { name: 'Sign off again' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Add addendum' }));
    await typeReport('<p>Also a small nodule.</p>', 'Addendum');
    fireEvent.click(screen.getByRole('button', { name: 'Save addendum' }));
    expect(await screen.findByText('Addendum added')).toBeTruthy();
    expect(api.calls('POST', `/api/report/addendum/${ROW_ID}`)[0]?.json()).toEqual({
      name: 'Addendum',
      content: '<p>Also a small nodule.</p>',
    });
  });

  it('inserts the image on screen as an uploaded REPORT_IMAGE', async () => {
    const assetId = 'a'.repeat(32);
    const api = fakeApi({
      ...base(),
      'POST /api/setting/upload-assets/': {
        body: { publicS3ImageUrl: `/api/assets/${assetId}`, assetType: 'REPORT_IMAGE' },
      },
    });
    renderEditor(10, async () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }));
    const editor = await editorOf();
    fireEvent.click(await screen.findByRole('button', { name: 'Insert key image' }));
    await waitFor(() =>
      expect(editor.getHTML()).toContain(`<img src="/api/assets/${assetId}" alt="Key image">`),
    );
    expect(api.calls('POST', '/api/setting/upload-assets/')).toHaveLength(1);
  });
});
