import {
  GROUP_SETTING_EXPLANATIONS,
  PREFERENCE_SECTIONS,
  SETTINGS_MESSAGES,
  type TGroupSettingChange,
  type TUserPreferences,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../../../app/AppRoot';
import { browserLocation } from '../../../lib/browser-location';
import { buildPreferences, buildUser, sessionHandlers } from '../../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../../test/fake-api';
import { renderRoutes, renderScreen, simulateWideScreen } from '../../../test/render';
import { useSession } from '../../auth/session';
import GroupSettingsPanel from './GroupSettingsPanel';

/** What the settings page does: the panel renders inside the signed-in session. */
function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const changesPath = 'GET /api/setting/group-changes';

/**
 * A fake group whose update-group calls merge into its sections and write one change row per field,
 * newest first (as the server does), so the panel's list shows what was saved.
 */
function fakeGroup(
  preferences: TUserPreferences = buildPreferences(),
  extra: Record<string, TFakeReply> = {},
) {
  const changes: TGroupSettingChange[] = [];
  const update = (request: TRecordedRequest) => {
    const section = request.path.split('/').pop() as keyof TUserPreferences;
    const body = request.json<Record<string, unknown>>();
    const before = preferences[section] as Record<string, unknown>;
    for (const [field, value] of Object.entries(body)) {
      changes.unshift({
        id: changes.length + 1,
        section,
        field,
        oldValue: before[field],
        newValue: value,
        changedBy: 'group@demo.local',
        changedAt: '2026-11-21T10:00:00.000Z',
      });
    }
    const next = PREFERENCE_SECTIONS[section].parse({ ...before, ...body });
    (preferences as Record<string, unknown>)[section] = next;
    return { body: next };
  };
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_GROUP']), preferences),
    [changesPath]: () => ({ body: { content: changes, totalElements: changes.length } }),
    'POST /api/setting/update-group/USER_ADMIN_VISIBLE_PREFERENCES': update,
    'POST /api/setting/update-group/GROUP_SWITCHES': update,
    'POST /api/setting/update-group/ADMIN_PREFERENCES': update,
    ...extra,
  });
  return { api, changes };
}

const renderPanel = () =>
  renderScreen(
    <SignedIn>
      <GroupSettingsPanel />
    </SignedIn>,
    { path: '/setting-page' },
  );

const section = (name: string) => screen.findByRole('region', { name }, PANEL_WAIT);
const fieldRow = (field: string) => screen.getByTestId(`group-field-${field}`);
/** Narrows the screen to the rows the filter keeps (role queries over all ~60 rows are slow in jsdom). */
const filterTo = async (text: string) => {
  const filter = await screen.findByRole('searchbox', { name: 'Filter settings' }, PANEL_WAIT);
  fireEvent.change(filter, { target: { value: text } });
};
// The whole panel is a large tree for jsdom on a busy machine.
const PANEL_WAIT = { timeout: 8_000 };
const SLOW = { timeout: 20_000 };

beforeEach(() => simulateWideScreen());

describe('GroupSettingsPanel', SLOW, () => {
  it('shows every field of the three group sections with its editor and the current value', async () => {
    fakeGroup(
      buildPreferences((p) => {
        p.GROUP_SWITCHES.openInHoros = true;
        p.ADMIN_PREFERENCES.signOffTimeLimit = 90;
        p.ADMIN_PREFERENCES.anonymizeZipType = 'ALL';
      }),
    );
    renderPanel();
    const visible = await section('Visible group settings');
    const switches = await section('Group switches');
    const admin = await section('Admin and performance values');

    const countOf = (name: keyof typeof PREFERENCE_SECTIONS) =>
      Object.keys(PREFERENCE_SECTIONS[name].shape).length;
    expect(within(visible).getAllByTestId(/^group-field-/)).toHaveLength(
      countOf('USER_ADMIN_VISIBLE_PREFERENCES'),
    );
    expect(within(switches).getAllByTestId(/^group-field-/)).toHaveLength(countOf('GROUP_SWITCHES'));
    expect(within(admin).getAllByTestId(/^group-field-/)).toHaveLength(countOf('ADMIN_PREFERENCES'));

    // Queried row by row: a role query over the whole panel is slow in jsdom.
    const inRow = (field: string) => within(fieldRow(field));
    const switchOf = (field: string, name: string) =>
      inRow(field).getByRole('switch', { name }) as HTMLInputElement;
    expect(switchOf('removeCenterNameWhileUploading', 'Remove center name while uploading').checked).toBe(
      false,
    );
    expect(switchOf('openInHoros', 'Open in Horos').checked).toBe(true);
    expect(fieldRow('openInHoros').textContent).toContain(
      GROUP_SETTING_EXPLANATIONS.GROUP_SWITCHES.openInHoros,
    );
    expect(switchOf('openInHoros', 'Open in Horos').getAttribute('aria-describedby')).toBeTruthy();
    expect(inRow('customRouterUrl').getByRole('textbox', { name: 'Custom router URL' })).toBeTruthy();
    expect(inRow('signOffTimeLimit').getByRole('combobox', { name: 'Sign-off time limit' }).textContent).toBe(
      '90 minutes',
    );
    expect(inRow('anonymizeZipType').getByRole('combobox', { name: 'Anonymize ZIP type' }).textContent).toBe(
      'ALL',
    );
    expect(
      inRow('durationOfBackupInMonth').getByRole('textbox', { name: 'Backup duration in months' }),
    ).toBeTruthy();
    expect(inRow('appDomain').getByRole('textbox', { name: 'App domain' })).toBeTruthy();
  });

  it('narrows the rows to the filter and says so when nothing matches', async () => {
    fakeGroup();
    renderPanel();
    const filter = await screen.findByRole('searchbox', { name: 'Filter settings' }, PANEL_WAIT);

    fireEvent.change(filter, { target: { value: 'openInHoros' } });
    expect(screen.getAllByTestId(/^group-field-/).map((r) => r.dataset.testid)).toEqual([
      'group-field-openInHoros',
    ]);
    expect(screen.queryByRole('region', { name: 'Visible group settings' })).toBeNull();

    fireEvent.change(filter, { target: { value: 'no such setting anywhere' } });
    expect(screen.getByText('No setting matches the filter.')).toBeTruthy();
    expect(screen.queryAllByTestId(/^group-field-/)).toHaveLength(0);
  });

  it('saves a toggled switch alone, confirms it, and shows it in Recent changes', async () => {
    const { api } = fakeGroup();
    renderPanel();
    const changes = await screen.findByRole('table', { name: 'Recent changes' }, PANEL_WAIT);
    expect(await within(changes).findByText('No changes yet')).toBeTruthy();
    await filterTo('openInHoros');

    fireEvent.click(screen.getByRole('switch', { name: 'Open in Horos' }));

    expect((await screen.findByRole('status')).textContent).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update-group/GROUP_SWITCHES').map((r) => r.json())).toEqual([
      { openInHoros: true },
    ]);
    expect((screen.getByRole('switch', { name: 'Open in Horos' }) as HTMLInputElement).checked).toBe(true);
    const row = await within(changes).findByText('GROUP_SWITCHES.openInHoros');
    const cells = within(row.closest('tr')!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(['group@demo.local', 'GROUP_SWITCHES.openInHoros', 'off → on']);
  });

  it('moves a toggled switch at once and keeps it there while the save is on its way', async () => {
    fakeGroup();
    renderPanel();
    await filterTo('openInHoros');
    const toggle = screen.getByRole('switch', { name: 'Open in Horos' }) as HTMLInputElement;

    fireEvent.click(toggle);

    // Read in the same task as the click: a switch that springs back until the request library
    // reports "pending" (a timer later) flickers, and a click checked at once reads as not taken.
    expect(toggle.checked).toBe(true);
    expect(toggle.disabled).toBe(true);
    await screen.findByRole('status');
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(true);
  });

  it('saves the chosen sign-off limit as minutes and None as no limit', async () => {
    const { api } = fakeGroup(buildPreferences((p) => (p.ADMIN_PREFERENCES.signOffTimeLimit = 30)));
    renderPanel();
    await filterTo('sign-off');
    const admin = await section('Admin and performance values');

    fireEvent.mouseDown(within(admin).getByRole('combobox', { name: 'Sign-off time limit' }));
    fireEvent.click(await screen.findByRole('option', { name: '120 minutes' }));
    await screen.findByRole('status');
    await waitFor(() =>
      expect(within(admin).getByRole('combobox', { name: 'Sign-off time limit' }).textContent).toBe(
        '120 minutes',
      ),
    );

    fireEvent.mouseDown(within(admin).getByRole('combobox', { name: 'Sign-off time limit' }));
    fireEvent.click(await screen.findByRole('option', { name: 'None' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES').map((r) => r.json())).toEqual([
        { signOffTimeLimit: 120 },
        { signOffTimeLimit: null },
      ]),
    );
  });

  it('refuses a backup duration that is not a whole number before sending it, and saves one that is', async () => {
    const { api } = fakeGroup();
    renderPanel();
    await filterTo('backup');
    const row = fieldRow('durationOfBackupInMonth');
    const input = within(row).getByRole('textbox', { name: 'Backup duration in months' });
    const saveButton = within(row).getByRole('button', { name: 'Save Backup duration in months' });
    expect((saveButton as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(input, { target: { value: '1.5' } });
    fireEvent.click(saveButton);
    expect(
      await within(row).findByText('Enter a whole number of 1 or more, or leave it empty for none.'),
    ).toBeTruthy();
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')).toHaveLength(0);

    fireEvent.change(input, { target: { value: '6' } });
    fireEvent.click(saveButton);
    expect((await screen.findByRole('status')).textContent).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')[0]?.json()).toEqual({
      durationOfBackupInMonth: 6,
    });
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_GROUP'])),
      [changesPath]: { body: { content: [], totalElements: 0 } },
      'POST /api/setting/update-group/USER_ADMIN_VISIBLE_PREFERENCES': {
        status: 400,
        body: errorBody(400, 'Too big: expected string to have <=500 characters'),
      },
    });
    renderPanel();
    await filterTo('customRouterUrl');
    const row = fieldRow('customRouterUrl');
    const input = within(row).getByRole('textbox', { name: 'Custom router URL' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'https://router.example.org' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save Custom router URL' }));

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Too big: expected string to have <=500 characters',
    );
    expect(input.value).toBe('https://router.example.org');
  });
});

describe('app domain (spec-core §4 Session)', SLOW, () => {
  const renderInApp = () =>
    renderRoutes(
      [{ element: <AppRoot />, children: [{ path: '/setting-page', element: <GroupSettingsPanel /> }] }],
      '/setting-page',
    );

  it('asks first, then a saved appDomain on another host signs this browser out and sends it there', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined);
    const { api } = fakeGroup(buildPreferences(), { 'POST /api/do-logout': { body: { ok: true } } });
    renderInApp();
    await filterTo('appDomain');
    const row = fieldRow('appDomain');
    fireEvent.change(within(row).getByRole('textbox', { name: 'App domain' }), {
      target: { value: 'reports.example.org' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save App domain' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change app domain' });
    expect(dialog.textContent).toContain(
      `Users on ${window.location.host} will be signed out and sent to reports.example.org`,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change' }));

    expect(await screen.findByText('Redirecting reports.example.org')).toBeTruthy();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://reports.example.org/login-page'));
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')[0]?.json()).toEqual({
      appDomain: 'reports.example.org',
    });
    expect(api.calls('POST', '/api/do-logout')).toHaveLength(1);
    assign.mockRestore();
  });

  it('sends nothing when the move is not confirmed', async () => {
    const { api } = fakeGroup();
    renderPanel();
    await filterTo('appDomain');
    const row = fieldRow('appDomain');
    fireEvent.change(within(row).getByRole('textbox', { name: 'App domain' }), {
      target: { value: 'elsewhere.example.org' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save App domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change app domain' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change app domain' })).toBeNull());
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')).toHaveLength(0);
  });

  it('saves this very host without asking and stays', async () => {
    const { api } = fakeGroup();
    renderPanel();
    await filterTo('appDomain');
    const row = fieldRow('appDomain');
    fireEvent.change(within(row).getByRole('textbox', { name: 'App domain' }), {
      target: { value: window.location.host },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save App domain' }));
    expect((await screen.findByRole('status')).textContent).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')[0]?.json()).toEqual({
      appDomain: window.location.host,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
