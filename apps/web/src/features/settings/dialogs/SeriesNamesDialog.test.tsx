import { SETTINGS_MESSAGES } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody } from '../../../test/fake-api';
import { click, openSettingDialog, snackbarText, typeInto, SLOW } from './CenterLabDialogs.testkit';
import SeriesNamesDialog from './SeriesNamesDialog';

const SAVE = 'POST /api/setting/update/SERIES_NAME';
const stored = buildPreferences((p) => {
  p.SERIES_NAME.seriesMappings = [{ seriesName: 'T1_AX', preferredName: 'T1 Axial' }];
});

function open(handlers = {}) {
  return openSettingDialog(SeriesNamesDialog, { preferences: stored, handlers, title: 'Series Names' });
}

function addRow(dialog: HTMLElement, seriesName: string, preferredName: string) {
  typeInto(dialog, 'Series name', seriesName);
  typeInto(dialog, 'Preferred name', preferredName);
  click(dialog, 'Add');
}

describe('SeriesNamesDialog', () => {
  it('saves the whole list after an add and a delete', SLOW, async () => {
    const { api, dialog, isClosed } = await open({
      [SAVE]: { body: { seriesMappings: [{ seriesName: 'DWI', preferredName: 'Diffusion' }] } },
    });
    expect(within(dialog).getByText('T1_AX → T1 Axial')).toBeTruthy();
    addRow(dialog, ' DWI ', 'Diffusion');
    click(dialog, 'Delete T1_AX');
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/SERIES_NAME')[0]?.json()).toEqual({
      seriesMappings: [{ seriesName: 'DWI', preferredName: 'Diffusion' }],
    });
    await waitFor(() => expect(isClosed()).toBe(true));
  });

  it('refuses a series name already listed, and a missing name, without sending', SLOW, async () => {
    const { api, dialog } = await open();
    addRow(dialog, 'T1_AX', 'Other');
    expect(within(dialog).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.seriesNameDuplicate);
    addRow(dialog, 'FLAIR', '');
    expect(within(dialog).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.seriesNamesRequired);
    expect(within(dialog).queryByText(/FLAIR/)).toBeNull();
    expect(api.calls('POST', '/api/setting/update/SERIES_NAME')).toHaveLength(0);
  });

  it("keeps the list on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      [SAVE]: { status: 400, body: errorBody(400, 'Series names are locked') },
    });
    addRow(dialog, 'DWI', 'Diffusion');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toContain('Series names are locked');
    expect(within(dialog).getByText('DWI → Diffusion')).toBeTruthy();
    expect(isClosed()).toBe(false);
  });

  it('resets the list after the confirmation', SLOW, async () => {
    const { api, dialog, isClosed } = await open({
      'POST /api/setting/reset/SERIES_NAME': { body: { seriesMappings: [] } },
    });
    click(dialog, 'Reset');
    // The frame's confirmation, whatever its title: the one dialog holding the spec's words.
    const words = await screen.findByText(SETTINGS_MESSAGES.resetConfirm);
    const confirm = words.closest<HTMLElement>('[role="dialog"]');
    if (!confirm) throw new Error('the reset confirmation is not a dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(isClosed()).toBe(true));
    expect(api.calls('POST', '/api/setting/reset/SERIES_NAME')).toHaveLength(1);
  });
});
