import { SETTING_ASSET_MESSAGES, SETTINGS_MESSAGES } from '@radflow/core';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../../../test/fake-api';
import {
  click,
  imageFile,
  openSettingDialog,
  snackbarText,
  typeInto,
  SLOW,
} from './CenterLabDialogs.testkit';
import SignatureDialog from './SignatureDialog';

const stored = { name: 'Dr. A. Rao, MD', signature: 'data:image/png;base64,iVBORw0KGgo=' };

async function open(handlers = {}) {
  const opened = await openSettingDialog(SignatureDialog, {
    roles: ['ROLE_DOCTOR'],
    handlers: { 'GET /api/metadata/sign': { body: stored }, ...handlers },
    title: 'Signature',
  });
  await within(opened.dialog).findByDisplayValue(stored.name);
  return opened;
}

const pick = (dialog: HTMLElement, file: File) =>
  fireEvent.change(within(dialog).getByLabelText('Signature image file'), { target: { files: [file] } });

describe('SignatureDialog', () => {
  it('shows the stored signature and sends the footer text with the picked jpeg', SLOW, async () => {
    const { forms, dialog, isClosed } = await open({
      'POST /api/metadata/upload/': {
        body: { name: 'Dr. A. Rao', signature: 'data:image/jpeg;base64,/9j/' },
      },
    });
    expect(within(dialog).getByAltText('Signature image preview').getAttribute('src')).toBe(stored.signature);
    typeInto(dialog, /^Footer text/, ' Dr. A. Rao ');
    pick(dialog, imageFile('sign.jpg', 'jpeg'));
    await waitFor(() =>
      expect(within(dialog).getByAltText('Signature image preview').getAttribute('src')).toMatch(
        /^data:image\/jpeg/,
      ),
    );
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    const sent = forms.find((f) => f.path === '/api/metadata/upload/')?.form;
    expect(JSON.parse(String(sent?.get('data')))).toEqual({ name: 'Dr. A. Rao' });
    expect((sent?.get('file') as File | null)?.name).toBe('sign.jpg');
    await waitFor(() => expect(isClosed()).toBe(true));
  });

  it('requires the footer text and refuses a file that is not an image, sending nothing', SLOW, async () => {
    const { api, dialog } = await open();
    pick(dialog, new File(['GIF89a..'], 'sign.gif', { type: 'image/gif' }));
    expect(await within(dialog).findByText(SETTING_ASSET_MESSAGES.imageType)).toBeTruthy();
    typeInto(dialog, /^Footer text/, '   ');
    click(dialog, 'Save');
    expect(within(dialog).getByText(SETTING_ASSET_MESSAGES.signatureNameRequired)).toBeTruthy();
    expect(api.calls('POST', '/api/metadata/upload/')).toHaveLength(0);
  });

  it("keeps the text on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      'POST /api/metadata/upload/': { status: 413, body: errorBody(413, 'The image is too large') },
    });
    typeInto(dialog, /^Footer text/, 'Dr. B');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toContain('The image is too large');
    expect(within(dialog).getByTestId('setting-dialog-error').textContent).toBe('The image is too large');
    expect((within(dialog).getByLabelText(/^Footer text/) as HTMLInputElement).value).toBe('Dr. B');
    expect(isClosed()).toBe(false);
  });
});
