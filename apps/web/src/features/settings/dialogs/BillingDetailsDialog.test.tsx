import { SETTINGS_MESSAGES, defaultPreferences } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody, type TRecordedRequest } from '../../../test/fake-api';
import { IMAGE_UPLOADING, IMAGE_UPLOAD_FAILED } from '../ImageUploadField';
import BillingDetailsDialog from './BillingDetailsDialog';
import {
  click,
  imageFile,
  openSettingDialog,
  snackbarText,
  typeInto,
  SLOW,
} from './CenterLabDialogs.testkit';

const SAVE = 'POST /api/setting/update/BILLING_DETAILS';
const LOGO = '/api/assets/abcdefabcdefabcdefabcdefabcdefab';
const stored = buildPreferences((p) => {
  p.BILLING_DETAILS = {
    ...p.BILLING_DETAILS,
    accName: 'Sunrise Diagnostics',
    bankName: 'SBI',
    gstPercentage: 18,
  };
});

function open(handlers = {}) {
  return openSettingDialog(BillingDetailsDialog, {
    roles: ['ROLE_BILLER'],
    preferences: stored,
    handlers,
    title: 'Billing Details',
  });
}

describe('BillingDetailsDialog', () => {
  it(
    'uploads the logo (saying so while it runs), then saves every field with the logo URL',
    SLOW,
    async () => {
      let answerUpload: () => void = () => undefined;
      const uploaded = new Promise<void>((resolve) => (answerUpload = resolve));
      const { api, forms, dialog, isClosed } = await open({
        'POST /api/setting/upload-assets/': async () => {
          await uploaded;
          return { body: { publicS3ImageUrl: LOGO, assetType: 'BILLING_LOGO' } };
        },
        [SAVE]: (r: TRecordedRequest) => ({ body: r.json() }),
      });
      expect((within(dialog).getByLabelText('Account name') as HTMLInputElement).value).toBe(
        'Sunrise Diagnostics',
      );
      fireEvent.change(within(dialog).getByLabelText('Logo'), { target: { files: [imageFile('logo.png')] } });
      expect(await within(dialog).findByText(IMAGE_UPLOADING)).toBeTruthy();
      answerUpload();
      expect(await within(dialog).findByAltText('Logo')).toBeTruthy();
      expect(forms.find((f) => f.path === '/api/setting/upload-assets/')?.form.get('assetType')).toBe(
        'BILLING_LOGO',
      );
      typeInto(dialog, 'Bank account number', '001234567890');
      typeInto(dialog, 'IFSC code', 'sbin0001234');
      typeInto(dialog, 'PAN', 'abcde1234f');
      typeInto(dialog, 'GST percentage', '12.5');
      click(dialog, 'Save');
      expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
      expect(api.calls('POST', '/api/setting/update/BILLING_DETAILS')[0]?.json()).toEqual({
        ...defaultPreferences().BILLING_DETAILS,
        logo: LOGO,
        accName: 'Sunrise Diagnostics',
        bankName: 'SBI',
        bankAccount: '001234567890',
        bankIFSC: 'SBIN0001234',
        pan: 'ABCDE1234F',
        gstPercentage: 12.5,
      });
      await waitFor(() => expect(isClosed()).toBe(true));
    },
  );

  it("says 'Image upload failed' when the logo upload is refused", SLOW, async () => {
    const { dialog } = await open({
      'POST /api/setting/upload-assets/': {
        status: 415,
        body: errorBody(415, 'Please choose a PNG or JPEG image.'),
      },
    });
    fireEvent.change(within(dialog).getByLabelText('Logo'), { target: { files: [imageFile('logo.png')] } });
    expect(await screen.findByText(IMAGE_UPLOAD_FAILED)).toBeTruthy();
    expect(within(dialog).queryByAltText('Logo')).toBeNull();
  });

  it('refuses a bad GST percentage and PAN without sending', SLOW, async () => {
    const { api, dialog } = await open();
    typeInto(dialog, 'GST percentage', '120');
    typeInto(dialog, 'PAN', 'ABC');
    click(dialog, 'Save');
    expect(within(dialog).getByText(SETTINGS_MESSAGES.gstPercentageInvalid)).toBeTruthy();
    expect(within(dialog).getByText(SETTINGS_MESSAGES.panInvalid)).toBeTruthy();
    expect(api.calls('POST', '/api/setting/update/BILLING_DETAILS')).toHaveLength(0);
  });

  it("keeps the input on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      [SAVE]: { status: 400, body: errorBody(400, 'Billing refused') },
    });
    typeInto(dialog, 'Bank branch', 'MG Road');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toContain('Billing refused');
    expect(within(dialog).getByTestId('setting-dialog-error').textContent).toBe('Billing refused');
    expect((within(dialog).getByLabelText('Bank branch') as HTMLInputElement).value).toBe('MG Road');
    expect(isClosed()).toBe(false);
  });
});
