import type { TRole } from '@radflow/core';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { closeSettingDialog } from './setting-dialog-store';
import { SettingsGear } from './SettingsGear';
import { NO_SETTINGS_MESSAGE, SettingsPage } from './SettingsPage';

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openPage(roles: TRole[], { forwardingPacs = false, teleUser = false } = {}) {
  fakeApi(
    sessionHandlers(
      buildUser(roles),
      buildPreferences((p) => {
        p.GROUP_SWITCHES.addForwardingPacsFeature = forwardingPacs;
      }),
      teleUser,
    ),
  );
  return renderScreen(
    <SignedIn>
      <SettingsGear />
      <SettingsPage />
    </SignedIn>,
    { path: '/setting-page' },
  );
}

async function entryLabels(): Promise<string[]> {
  const list = await screen.findByRole('list', { name: 'Settings entries' });
  return within(list)
    .getAllByRole('button')
    .map((b) => b.textContent ?? '');
}

// The dialog store outlives a test; start each one with no dialog open.
afterEach(() => closeSettingDialog());

// The dialogs are lazy chunks, slow to load in jsdom on a busy machine.
const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 10_000 };

describe('Manage preference (/setting-page)', SLOW, () => {
  it("lists a doctor's entries in the spec's order, without forwarding PACS while the group switch is off", async () => {
    openPage(['ROLE_DOCTOR']);
    expect(await screen.findByRole('heading', { level: 1, name: 'Manage preference' })).toBeTruthy();
    expect(await entryLabels()).toEqual([
      'Signature',
      'Report Text',
      'Contact Info',
      'Tags',
      'Viewer Setting',
      'Study Table Setting',
      'Editor Setting',
      'Table Columns',
      'Auto Refresh',
    ]);
  });

  it('offers a doctor forwarding PACS when the group turned it on', async () => {
    openPage(['ROLE_DOCTOR'], { forwardingPacs: true });
    expect(await entryLabels()).toContain('Forwarding PACS');
  });

  it("lists a center's entries", async () => {
    openPage(['ROLE_CENTER']);
    expect(await entryLabels()).toEqual([
      'Signature',
      'Series Names',
      'Report Text',
      'PDF Margins and Images',
      'Contact Info',
      'Forwarding PACS',
      'Study Table Setting',
      'Editor Setting',
      'Table Columns',
      'Slots',
      'Category and Priority',
      'Lab Departments',
    ]);
  });

  it('gives a group admin their entries and a Group settings tab', async () => {
    openPage(['ROLE_GROUP']);
    expect(await entryLabels()).toEqual([
      'Report Text',
      'PDF Margins and Images',
      'Table Columns',
      'Billing Details',
      'Verification Settings',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'Group settings' }));
    expect(screen.getByRole('tab', { name: 'Group settings', selected: true })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Settings entries' })).toBeNull();
  });

  it("lists a labs supervisor's invoice prefix and table columns, without a group tab", async () => {
    openPage(['ROLE_LABS_SUPERVISOR']);
    expect(await entryLabels()).toEqual(['Table Columns', 'Invoice Number and Prefix']);
    expect(screen.queryByRole('tab', { name: 'Group settings' })).toBeNull();
  });

  it('tells a typist there is nothing to set, and shows no gear', async () => {
    openPage(['ROLE_TYPIST']);
    expect(await screen.findByText(NO_SETTINGS_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Settings' })).toBeNull();
  });

  it('gives a tele radiology user the gear with billing details and table columns (spec-lab §6)', async () => {
    openPage(['ROLE_TELE_RADIOLOGY'], { teleUser: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }, WAIT));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Table Columns', 'Billing Details']);
  });

  it('opens the same dialog from a card and from the gear menu', async () => {
    openPage(['ROLE_DOCTOR']);
    const labels = await entryLabels();
    const list = screen.getByRole('list', { name: 'Settings entries' });
    fireEvent.click(within(list).getByRole('button', { name: 'Editor Setting' }));
    const fromCard = await screen.findByTestId('setting-dialog-EDITOR_SETTING', {}, WAIT);
    fireEvent.click(within(fromCard).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(labels);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Tags' }));
    expect(await screen.findByTestId('setting-dialog-TAGS', {}, WAIT)).toBeTruthy();
    expect(screen.queryByTestId('setting-dialog-EDITOR_SETTING')).toBeNull();
  });
});
