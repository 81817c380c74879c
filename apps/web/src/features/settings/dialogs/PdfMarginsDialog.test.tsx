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
import PdfMarginsDialog from './PdfMarginsDialog';

const stored = {
  pdfMarginTop: 4,
  pdfMarginBottom: 3,
  pdfMarginLeft: 3,
  pdfMarginRight: 3,
  headerImageUrl: null,
  footerImageUrl: '/api/assets/0123456789abcdef0123456789abcdef',
};

async function open(handlers = {}) {
  const opened = await openSettingDialog(PdfMarginsDialog, {
    handlers: { 'GET /api/center-setting/': { body: stored }, ...handlers },
    title: 'PDF Margins and Images',
  });
  await within(opened.dialog).findByLabelText(/^Top margin/);
  return opened;
}

const pick = (dialog: HTMLElement, label: string, file: File) =>
  fireEvent.change(within(dialog).getByLabelText(`${label} file`), { target: { files: [file] } });

describe('PdfMarginsDialog', () => {
  it(
    'sends the margins, the picked png header and the footer removal as one multipart save',
    SLOW,
    async () => {
      const { forms, dialog, isClosed } = await open({
        'POST /api/center-setting/update/': { body: { ...stored, pdfMarginTop: 2.55, footerImageUrl: null } },
      });
      expect(within(dialog).getByAltText('Footer image preview').getAttribute('src')).toBe(
        stored.footerImageUrl,
      );
      typeInto(dialog, /^Top margin/, '2.55');
      pick(dialog, 'Header image', imageFile('header.png'));
      expect(await within(dialog).findByAltText('Header image preview')).toBeTruthy();
      click(dialog, 'Remove footer image');
      click(dialog, 'Save');
      expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
      const sent = forms.find((f) => f.path === '/api/center-setting/update/')?.form;
      expect(sent?.get('pdf_margin_top')).toBe('2.55');
      expect(sent?.get('pdf_margin_bottom')).toBe('3');
      expect(sent?.get('pdf_margin_left')).toBe('3');
      expect(sent?.get('pdf_margin_right')).toBe('3');
      expect((sent?.get('header') as File | null)?.name).toBe('header.png');
      expect(sent?.get('footer')).toBeNull();
      expect(sent?.get('removeFooter')).toBe('true');
      expect(sent?.get('removeHeader')).toBeNull();
      await waitFor(() => expect(isClosed()).toBe(true));
    },
  );

  it('refuses a blank top margin and a jpeg header before sending anything', SLOW, async () => {
    const { api, dialog } = await open();
    pick(dialog, 'Footer image', imageFile('footer.jpg', 'jpeg'));
    expect(await within(dialog).findByText(SETTING_ASSET_MESSAGES.imagePngOnly)).toBeTruthy();
    expect(within(dialog).getByAltText('Footer image preview').getAttribute('src')).toBe(
      stored.footerImageUrl,
    );
    typeInto(dialog, /^Top margin/, '');
    click(dialog, 'Save');
    expect(within(dialog).getByText(SETTING_ASSET_MESSAGES.marginTopRequired)).toBeTruthy();
    expect(api.calls('POST', '/api/center-setting/update/')).toHaveLength(0);
  });

  it("keeps the margins on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      'POST /api/center-setting/update/': { status: 415, body: errorBody(415, 'Header must be a PNG image') },
    });
    typeInto(dialog, /^Bottom margin/, '2');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toContain('Header must be a PNG image');
    expect(within(dialog).getByTestId('setting-dialog-error').textContent).toBe('Header must be a PNG image');
    expect((within(dialog).getByLabelText(/^Bottom margin/) as HTMLInputElement).value).toBe('2');
    expect(isClosed()).toBe(false);
  });
});
