import { SETTINGS_MESSAGES, defaultPreferences } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody } from '../../../test/fake-api';
import { IMAGE_UPLOAD_FAILED, IMAGE_UPLOADING } from '../ImageUploadField';
import { click, imageFile, openSettingDialog, snackbarText, typeInto } from './CenterLabDialogs.testkit';
import AutoRefreshDialog from './AutoRefreshDialog';
import ContactInfoDialog from './ContactInfoDialog';
import EditorSettingDialog from './EditorSettingDialog';
import StudyTableSettingDialog from './StudyTableSettingDialog';
import TableColumnsDialog from './TableColumnsDialog';
import TagsDialog from './TagsDialog';
import VerificationSettingsDialog from './VerificationSettingsDialog';
import ViewerSettingDialog from './ViewerSettingDialog';

const SLOW = { timeout: 20_000 };
const doctor = { roles: ['ROLE_DOCTOR' as const] };

describe('the personal settings dialogs', SLOW, () => {
  it("saves the viewer switches, says 'Setting updated successfully' and closes", async () => {
    const saved = { ...defaultPreferences().UI_PREFERENCES, popupViewer: true };
    const { api, dialog, isClosed } = await openSettingDialog(ViewerSettingDialog, {
      ...doctor,
      title: 'Viewer Setting',
      handlers: { 'POST /api/setting/update/UI_PREFERENCES': { body: saved } },
    });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Pop-up viewer' }));
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/UI_PREFERENCES')[0]?.json()).toEqual({
      hideStudyListReportButton: false,
      halfPageReporting: false,
      enableVoiceTyping: false,
      popupViewer: true,
      popupViewerDoNotFocus: false,
      autoRefresh: true,
    });
    expect(isClosed()).toBe(true);
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    const { dialog, isClosed } = await openSettingDialog(ContactInfoDialog, {
      ...doctor,
      title: 'Contact Info',
      handlers: {
        'POST /api/setting/update/USER_INFORMATION': {
          status: 400,
          body: errorBody(400, 'The address is too long.'),
        },
      },
    });
    typeInto(dialog, 'Address', '12 Ring Road');
    click(dialog, 'Save');
    expect(await snackbarText('alert')).toBe('The address is too long.');
    expect(within(dialog).getByText('The address is too long.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Address') as HTMLTextAreaElement).value).toBe('12 Ring Road');
    expect(isClosed()).toBe(false);
  });

  it('refuses a bad e-mail with the core message before sending', async () => {
    const { api, dialog } = await openSettingDialog(ContactInfoDialog, { ...doctor, title: 'Contact Info' });
    typeInto(dialog, 'Email', 'not-an-email');
    click(dialog, 'Save');
    expect(await within(dialog).findByText(SETTINGS_MESSAGES.emailInvalid)).toBeTruthy();
    expect(api.calls('POST', '/api/setting/update/USER_INFORMATION')).toHaveLength(0);
  });

  it('blocks a tag with spaces or special characters without a request', async () => {
    const { api, dialog } = await openSettingDialog(TagsDialog, { ...doctor, title: 'Tags' });
    typeInto(dialog, 'New tag', 'chest x-ray');
    click(dialog, 'Add');
    expect(await within(dialog).findByText(SETTINGS_MESSAGES.tagCharacters)).toBeTruthy();
    expect(api.calls('POST', '/api/setting/update/TAGS')).toHaveLength(0);
  });

  it('adds a tag by sending the whole list, and asks before deleting one', async () => {
    const preferences = buildPreferences((p) => {
      p.TAGS.tags = ['chest'];
    });
    const { api, dialog } = await openSettingDialog(TagsDialog, {
      ...doctor,
      preferences,
      title: 'Tags',
      handlers: {
        'POST /api/setting/update/TAGS': (request) => ({ body: request.json() }),
      },
    });
    typeInto(dialog, 'New tag', 'spine2');
    click(dialog, 'Add');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/TAGS')[0]?.json()).toEqual({ tags: ['chest', 'spine2'] });

    fireEvent.click(within(dialog).getByLabelText('Delete tag chest'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag' });
    expect(within(confirm).getByText(SETTINGS_MESSAGES.tagDeleteConfirm)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls('POST', '/api/setting/update/TAGS')).toHaveLength(2));
    expect(api.calls('POST', '/api/setting/update/TAGS')[1]?.json()).toEqual({ tags: ['spine2'] });
  });

  it('asks before a reset and sends nothing when the user cancels', async () => {
    const { api, dialog, isClosed } = await openSettingDialog(EditorSettingDialog, {
      ...doctor,
      title: 'Editor Setting',
      handlers: {
        'POST /api/setting/reset/EDITOR_PREFERENCES': { body: defaultPreferences().EDITOR_PREFERENCES },
      },
    });
    click(dialog, 'Reset');
    let confirm = await screen.findByRole('dialog', { name: 'Reset settings' });
    expect(within(confirm).getByText(SETTINGS_MESSAGES.resetConfirm)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset settings' })).toBeNull());
    expect(api.calls('POST', '/api/setting/reset/EDITOR_PREFERENCES')).toHaveLength(0);

    click(dialog, 'Reset');
    confirm = await screen.findByRole('dialog', { name: 'Reset settings' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Reset' }));
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/reset/EDITOR_PREFERENCES')).toHaveLength(1);
    expect(isClosed()).toBe(true);
  });

  it('saves the verification rows and the sign-off limit through update-group, with one toast', async () => {
    const preferences = buildPreferences((p) => {
      p.VERIFICATION_SETTINGS.centersAndDoctorsList = [
        { centerEmail: 'center@demo.local', doctorEmail: 'doc@demo.local' },
      ];
    });
    const { api, dialog, isClosed } = await openSettingDialog(VerificationSettingsDialog, {
      roles: ['ROLE_GROUP'],
      preferences,
      title: 'Verification Settings',
      handlers: {
        'POST /api/setting/update-group/VERIFICATION_SETTINGS': (request) => ({
          body: { ...preferences.VERIFICATION_SETTINGS, ...request.json<object>() },
        }),
        'POST /api/setting/update-group/ADMIN_PREFERENCES': (request) => ({
          body: { ...preferences.ADMIN_PREFERENCES, ...request.json<object>() },
        }),
      },
    });
    fireEvent.click(
      within(dialog).getByRole('switch', { name: 'Reports need verification before sign-off' }),
    );
    fireEvent.click(
      within(dialog).getByRole('switch', { name: 'Show studies in red after the turnaround time' }),
    );
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update-group/VERIFICATION_SETTINGS')[0]?.json()).toEqual({
      needVerification: true,
      selectAllDoctorsAndCenters: false,
      centersAndDoctorsList: [{ centerEmail: 'center@demo.local', doctorEmail: 'doc@demo.local' }],
    });
    expect(api.calls('POST', '/api/setting/update-group/ADMIN_PREFERENCES')[0]?.json()).toEqual({
      signOffTimeLimit: null,
      showRedAfterTAT: true,
    });
    expect(isClosed()).toBe(true);
  });

  it('refuses a verification row without a valid e-mail before sending', async () => {
    const { api, dialog } = await openSettingDialog(VerificationSettingsDialog, {
      roles: ['ROLE_GROUP'],
      title: 'Verification Settings',
    });
    click(dialog, 'Add center and doctor');
    typeInto(dialog, 'Center email', 'center@demo.local');
    click(dialog, 'Save');
    expect(await within(dialog).findByText(SETTINGS_MESSAGES.emailInvalid)).toBeTruthy();
    expect(api.requests.filter((r) => r.path.startsWith('/api/setting/'))).toHaveLength(0);
  });
});

describe('the center image of the contact info', SLOW, () => {
  it('uploads the image, then saves its link with the rest', async () => {
    const { api, dialog, forms } = await openSettingDialog(ContactInfoDialog, {
      ...doctor,
      title: 'Contact Info',
      handlers: {
        'POST /api/setting/upload-assets/': {
          body: {
            publicS3ImageUrl: '/api/assets/0123456789abcdef0123456789abcdef',
            assetType: 'CENTER_IMAGE',
          },
        },
        'POST /api/setting/update/USER_INFORMATION': (request) => ({
          body: { ...defaultPreferences().USER_INFORMATION, ...request.json<object>() },
        }),
      },
    });
    fireEvent.change(within(dialog).getByLabelText('Center image'), {
      target: { files: [imageFile('logo.png')] },
    });
    expect(within(dialog).getByText(IMAGE_UPLOADING)).toBeTruthy();
    expect(await within(dialog).findByRole('img', { name: 'Center image' })).toBeTruthy();
    expect(forms[0]?.form.get('assetType')).toBe('CENTER_IMAGE');
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/USER_INFORMATION')[0]?.json()).toMatchObject({
      centerImage: '/api/assets/0123456789abcdef0123456789abcdef',
    });
  });

  it("says 'Image upload failed' when the server refuses the file", async () => {
    const { dialog } = await openSettingDialog(ContactInfoDialog, {
      ...doctor,
      title: 'Contact Info',
      handlers: {
        'POST /api/setting/upload-assets/': { status: 413, body: errorBody(413, 'The file is too large.') },
      },
    });
    fireEvent.change(within(dialog).getByLabelText('Center image'), {
      target: { files: [imageFile('big.png')] },
    });
    expect(await snackbarText('alert')).toBe(IMAGE_UPLOAD_FAILED);
    expect(within(dialog).queryByRole('img', { name: 'Center image' })).toBeNull();
  });
});

describe('auto refresh, study table and table columns', SLOW, () => {
  it('turns auto refresh off by sending only that field', async () => {
    const { api, dialog } = await openSettingDialog(AutoRefreshDialog, {
      ...doctor,
      title: 'Auto Refresh',
      handlers: {
        'POST /api/setting/update/UI_PREFERENCES': (request) => ({
          body: { ...defaultPreferences().UI_PREFERENCES, ...request.json<object>() },
        }),
      },
    });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Refresh the study lists automatically' }));
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/UI_PREFERENCES')[0]?.json()).toEqual({
      autoRefresh: false,
    });
  });

  it('sets a row colour and clears another with None', async () => {
    const preferences = buildPreferences((p) => {
      p.UI_REPORT_TABLE_PREFERENCES.urgentColor = '#ff0000';
    });
    const { api, dialog } = await openSettingDialog(StudyTableSettingDialog, {
      ...doctor,
      preferences,
      title: 'Study Table Setting',
      handlers: {
        'POST /api/setting/update/UI_REPORT_TABLE_PREFERENCES': (request) => ({ body: request.json() }),
      },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'No colour for Locked' }));
    typeInto(dialog, 'Locked', '#00ff00');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'No colour for Urgent' }));
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/UI_REPORT_TABLE_PREFERENCES')[0]?.json()).toMatchObject({
      lockedColor: '#00ff00',
      urgentColor: '',
    });
  });

  it("offers a doctor's study table and opens its column choice", async () => {
    const { dialog } = await openSettingDialog(TableColumnsDialog, { ...doctor, title: 'Table Columns' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Study list' }));
    expect(await screen.findByRole('dialog', { name: 'Column settings' })).toBeTruthy();
  });
});
