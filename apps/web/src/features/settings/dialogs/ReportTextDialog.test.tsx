import { SETTINGS_MESSAGES, defaultPreferences } from '@radflow/core';
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { click, openSettingDialog, snackbarText } from './CenterLabDialogs.testkit';
import ReportTextDialog from './ReportTextDialog';

describe('ReportTextDialog', { timeout: 20_000 }, () => {
  it('shows the three editors with their toolbars and saves the stored HTML back', async () => {
    const preferences = buildPreferences((p) => {
      p.REPORT_TEXT.header = '<p><strong>City Clinic</strong></p>';
    });
    const { api, dialog, isClosed } = await openSettingDialog(ReportTextDialog, {
      roles: ['ROLE_DOCTOR'],
      preferences,
      title: 'Report Text',
      handlers: {
        'POST /api/setting/update/REPORT_TEXT': (request) => ({
          body: { ...defaultPreferences().REPORT_TEXT, ...request.json<object>() },
        }),
      },
    });
    for (const part of ['Header', 'Footer', 'Disclaimer']) {
      const toolbar = await within(dialog).findByRole('toolbar', { name: `${part} formatting` });
      expect(within(toolbar).getByRole('button', { name: 'Bold' })).toBeTruthy();
      expect(within(dialog).getByRole('textbox', { name: part })).toBeTruthy();
    }
    expect(within(dialog).getByRole('textbox', { name: 'Header' }).textContent).toBe('City Clinic');
    click(dialog, 'Save');
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/REPORT_TEXT')[0]?.json()).toEqual({
      header: '<p><strong>City Clinic</strong></p>',
      footer: '',
      disclaimer: '',
    });
    expect(isClosed()).toBe(true);
  });
});
