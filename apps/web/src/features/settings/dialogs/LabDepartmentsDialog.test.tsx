import { SETTINGS_MESSAGES } from '@radflow/core';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody, type TRecordedRequest } from '../../../test/fake-api';
import { openSettingDialog, snackbarText, SLOW } from './CenterLabDialogs.testkit';
import LabDepartmentsDialog from './LabDepartmentsDialog';

const SAVE = 'POST /api/setting/update/LAB_DEPARTMENTS';
const stored = buildPreferences((p) => {
  p.LAB_DEPARTMENTS.labDepartmentList = ['RADIOLOGY'];
  p.LAB_DEPARTMENTS.referringDoctorDepartmentList = ['CARDIOLOGY'];
});

function open(handlers = {}) {
  return openSettingDialog(LabDepartmentsDialog, { preferences: stored, handlers, title: 'Lab Departments' });
}

function add(dialog: HTMLElement, list: string, name: string) {
  const g = within(dialog).getByRole('group', { name: list });
  fireEvent.change(within(g).getByLabelText('Department name'), { target: { value: name } });
  fireEvent.click(within(g).getByRole('button', { name: 'Add' }));
  return g;
}

describe('LabDepartmentsDialog', () => {
  it(
    'saves an added department trimmed and upper-cased with both lists, and says none can be deleted',
    SLOW,
    async () => {
      const echo = (r: TRecordedRequest) => ({ body: r.json() });
      const { api, dialog } = await open({ [SAVE]: echo });
      expect(within(dialog).getByText(SETTINGS_MESSAGES.departmentCannotBeDeleted)).toBeTruthy();
      const g = add(dialog, 'Referring doctor departments', '  neurology ');
      expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
      expect(api.calls('POST', '/api/setting/update/LAB_DEPARTMENTS')[0]?.json()).toEqual({
        labDepartmentList: ['RADIOLOGY'],
        referringDoctorDepartmentList: ['CARDIOLOGY', 'NEUROLOGY'],
      });
      expect(await within(g).findByText('NEUROLOGY')).toBeTruthy();
      await waitFor(() =>
        expect((within(g).getByLabelText('Department name') as HTMLInputElement).value).toBe(''),
      );
    },
  );

  it('refuses a duplicate (any case) and NONE without sending', SLOW, async () => {
    const { api, dialog } = await open();
    add(dialog, 'Lab departments', 'radiology');
    expect(within(dialog).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.departmentDuplicate);
    add(dialog, 'Lab departments', ' none');
    expect(within(dialog).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.departmentNone);
    expect(api.calls('POST', '/api/setting/update/LAB_DEPARTMENTS')).toHaveLength(0);
  });

  it("says 'Failed to save department' and keeps the name when the save fails", SLOW, async () => {
    const { dialog } = await open({ [SAVE]: { status: 500, body: errorBody(500, 'Database unavailable') } });
    const g = add(dialog, 'Lab departments', 'Pathology');
    expect(await within(dialog).findByText(SETTINGS_MESSAGES.departmentSaveFailed)).toBeTruthy();
    expect((within(g).getByLabelText('Department name') as HTMLInputElement).value).toBe('Pathology');
    expect(within(g).queryByText('PATHOLOGY')).toBeNull();
  });
});
