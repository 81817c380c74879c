import { REPORTING_MESSAGES, type TReportTemplate, type TRole } from '@radflow/core';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { TemplatePage } from './TemplatePage';

const SLOW = { timeout: 20_000 };
// The first answers arrive after the session loads; on a busy machine that takes more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

let nextId = 1;
function buildTemplate(overrides: Partial<TReportTemplate> = {}): TReportTemplate {
  const id = nextId++;
  return {
    id,
    name: `Template ${id}`,
    content: '<p>Normal study.</p>',
    modalities: [],
    bodyParts: [],
    gender: null,
    owner: 'doctor@demo.local',
    isOwn: true,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply);

function renderPage(opts: {
  roles?: TRole[];
  templates: TReportTemplate[];
  disableForRadiologist?: boolean;
  handlers?: Record<string, THandler>;
}) {
  const prefs = buildPreferences((p) => {
    p.USER_ADMIN_VISIBLE_PREFERENCES.disableCreateTemplateOptionToRadiologist =
      opts.disableForRadiologist ?? false;
  });
  const api = fakeApi({
    ...sessionHandlers(buildUser(opts.roles ?? ['ROLE_DOCTOR']), prefs),
    'GET /api/report-template/': { body: opts.templates },
    ...opts.handlers,
  });
  renderScreen(
    <SignedIn>
      <TemplatePage />
    </SignedIn>,
    { path: '/template-page' },
  );
  return api;
}

describe('TemplatePage', () => {
  it('lists the templates with their tags and filters them by name or tag', SLOW, async () => {
    renderPage({
      templates: [
        buildTemplate({ name: 'CT Brain plain', modalities: ['CT'], bodyParts: ['Brain'] }),
        buildTemplate({
          name: 'USG Pelvis',
          modalities: ['US'],
          bodyParts: ['Pelvis'],
          gender: 'F',
          isOwn: false,
          owner: 'admin@demo.local',
        }),
      ],
    });
    expect(await screen.findByText('CT Brain plain')).toBeTruthy();
    expect(screen.getByText('US · Pelvis · Female')).toBeTruthy();
    expect(screen.getByText('admin@demo.local')).toBeTruthy();
    // A doctor changes their own templates only (the other is a group admin's).
    expect(screen.getByRole('button', { name: 'Edit CT Brain plain' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit USG Pelvis' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Filter templates'), { target: { value: 'pelvis' } });
    expect(screen.queryByText('CT Brain plain')).toBeNull();
    expect(screen.getByText('USG Pelvis')).toBeTruthy();
  });

  it('creates a template: name required, then POST with name and tags', SLOW, async () => {
    const api = renderPage({
      templates: [],
      handlers: { 'POST /api/report-template/': (r) => ({ body: buildTemplate(r.json()) }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New template' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(REPORTING_MESSAGES.templateNameRequired)).toBeTruthy();
    expect(api.calls('POST', '/api/report-template/')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Template name/), { target: { value: 'MR Knee' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Gender'));
    fireEvent.click(await screen.findByRole('option', { name: 'Male' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('POST', '/api/report-template/')).toHaveLength(1));
    expect(api.calls('POST', '/api/report-template/')[0]?.json()).toMatchObject({
      name: 'MR Knee',
      gender: 'M',
      modalities: [],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New template' })).toBeNull());
  });

  it('edits a template: its text opens in the report editor, the rename keeps it', SLOW, async () => {
    const template = buildTemplate({
      name: 'CT Abdomen',
      content: '<p>Liver normal.</p>',
      modalities: ['CT'],
    });
    const api = renderPage({
      templates: [template],
      handlers: {
        [`PUT /api/report-template/${template.id}`]: (r) => ({ body: { ...template, ...r.json<object>() } }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit CT Abdomen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit template' });
    expect(within(dialog).getByRole('textbox', { name: 'Template text' }).textContent).toBe('Liver normal.');
    fireEvent.change(within(dialog).getByLabelText(/Template name/), {
      target: { value: 'CT Abdomen plain' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PUT', `/api/report-template/${template.id}`)).toHaveLength(1));
    expect(api.calls('PUT', `/api/report-template/${template.id}`)[0]?.json()).toEqual({
      name: 'CT Abdomen plain',
      content: '<p>Liver normal.</p>',
      modalities: ['CT'],
      bodyParts: [],
      gender: null,
    });
  });

  it('edits the tags in the template tag editor (PUT keeps name and text)', SLOW, async () => {
    const template = buildTemplate({ name: 'CT Chest', modalities: ['CT'] });
    const api = renderPage({
      templates: [template],
      handlers: {
        [`PUT /api/report-template/${template.id}`]: (r) => ({ body: { ...template, ...r.json<object>() } }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Tags of CT Chest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Template tags' });
    const bodyParts = within(dialog).getByLabelText('Body parts');
    fireEvent.change(bodyParts, { target: { value: 'Chest' } });
    fireEvent.keyDown(bodyParts, { key: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PUT', `/api/report-template/${template.id}`)).toHaveLength(1));
    expect(api.calls('PUT', `/api/report-template/${template.id}`)[0]?.json()).toEqual({
      name: 'CT Chest',
      content: template.content,
      modalities: ['CT'],
      bodyParts: ['Chest'],
      gender: null,
    });
  });

  it('deletes only after the confirm, and shows the server refusal', SLOW, async () => {
    const template = buildTemplate({ name: 'Old one' });
    const api = renderPage({
      templates: [template],
      handlers: {
        [`DELETE /api/report-template/${template.id}`]: {
          status: 403,
          body: errorBody(403, REPORTING_MESSAGES.templateNotYours),
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Old one' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete template' })).toBeNull());
    expect(api.calls('DELETE', `/api/report-template/${template.id}`)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Old one' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete template' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(REPORTING_MESSAGES.templateNotYours)).toBeTruthy();
    expect(api.calls('DELETE', `/api/report-template/${template.id}`)).toHaveLength(1);
    // A refusal is not a "sign in again": the page stays.
    expect(window.location.pathname).toBe('/template-page');
  });

  it('hides every write button from a sole doctor when creating templates is disabled', SLOW, async () => {
    renderPage({ templates: [buildTemplate({ name: 'Mine' })], disableForRadiologist: true });
    expect(await screen.findByText('Mine')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New template' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Mine' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Mine' })).toBeNull();
  });

  it('keeps them for a doctor who is also a typist', SLOW, async () => {
    renderPage({ roles: ['ROLE_DOCTOR', 'ROLE_TYPIST'], templates: [], disableForRadiologist: true });
    expect(await screen.findByRole('button', { name: 'New template' })).toBeTruthy();
  });
});
