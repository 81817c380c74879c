import { SETTING_ASSET_MESSAGES, SETTINGS_MESSAGES } from '@radflow/core';
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../../test/fake-api';
import { click, openSettingDialog, snackbarText, typeInto, SLOW } from './CenterLabDialogs.testkit';
import InvoicePrefixDialog from './InvoicePrefixDialog';

const stored = { prefix: 'INV-', sequence: 41, uhidPrefix: 'UH', uhidSequence: 7 };

async function open(handlers = {}) {
  const opened = await openSettingDialog(InvoicePrefixDialog, {
    roles: ['ROLE_LABS_SUPERVISOR'],
    handlers: { 'GET /api/lab/get-prefix': { body: stored }, ...handlers },
    title: 'Invoice Number and Prefix',
  });
  await within(opened.dialog).findByDisplayValue('INV-');
  return opened;
}

describe('InvoicePrefixDialog', () => {
  it('shows the stored prefix and saves the four fields', SLOW, async () => {
    const saved = { prefix: 'LAB/', sequence: 100, uhidPrefix: 'UH', uhidSequence: 7 };
    const { api, dialog, isClosed } = await open({ 'POST /api/lab/add-prefix': { body: saved } });
    expect((within(dialog).getByLabelText(/^Invoice sequence/) as HTMLInputElement).value).toBe('41');
    typeInto(dialog, /^Invoice prefix/, 'LAB/');
    typeInto(dialog, /^Invoice sequence/, '100');
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/lab/add-prefix')[0]?.json()).toEqual(saved);
    await waitFor(() => expect(isClosed()).toBe(true));
  });

  it('requires every field and sends nothing', SLOW, async () => {
    const { api, dialog } = await open();
    typeInto(dialog, /^UHID prefix/, '');
    typeInto(dialog, /^Invoice sequence/, ' ');
    click(dialog, 'Save');
    expect(within(dialog).getByText(SETTING_ASSET_MESSAGES.uhidPrefixRequired)).toBeTruthy();
    expect(within(dialog).getByText(SETTING_ASSET_MESSAGES.sequenceRequired)).toBeTruthy();
    expect(api.calls('POST', '/api/lab/add-prefix')).toHaveLength(0);
  });

  it("keeps the input on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      'POST /api/lab/add-prefix': { status: 400, body: errorBody(400, 'Prefix refused by server') },
    });
    typeInto(dialog, /^Invoice prefix/, 'NEW-');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toContain('Prefix refused by server');
    expect(within(dialog).getByTestId('setting-dialog-error').textContent).toBe('Prefix refused by server');
    expect((within(dialog).getByLabelText(/^Invoice prefix/) as HTMLInputElement).value).toBe('NEW-');
    expect(isClosed()).toBe(false);
  });
});
