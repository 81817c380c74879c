import { SETTINGS_MESSAGES } from '@radflow/core';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../../test/builders';
import { errorBody } from '../../../test/fake-api';
import { openSettingDialog, snackbarText, SLOW } from './CenterLabDialogs.testkit';
import CategoryPriorityDialog, { addCategoryEntry } from './CategoryPriorityDialog';

const SAVE = 'POST /api/setting/update/LAB_CATEGORY_PRIORITY';
const stored = buildPreferences((p) => {
  p.LAB_CATEGORY_PRIORITY.categoriesAndPriorities = [
    { name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY', disabled: false },
    { name: 'Urgent', discount: 0, type: 'PRIORITY', disabled: false },
  ];
});

function open(handlers = {}) {
  return openSettingDialog(CategoryPriorityDialog, {
    preferences: stored,
    handlers,
    title: 'Category and Priority',
  });
}

const group = (dialog: HTMLElement, name: string) => within(dialog).getByRole('group', { name });

function add(dialog: HTMLElement, list: string, name: string, discount?: string) {
  const g = group(dialog, list);
  fireEvent.change(within(g).getByLabelText('Name'), { target: { value: name } });
  if (discount !== undefined) {
    fireEvent.change(within(g).getByLabelText('Discount (%)'), { target: { value: discount } });
  }
  fireEvent.click(within(g).getByRole('button', { name: 'Add' }));
}

describe('addCategoryEntry', () => {
  it('refuses none, duplicates of the same type and bad discounts; a priority has no discount', () => {
    const list = stored.LAB_CATEGORY_PRIORITY.categoriesAndPriorities;
    const category = (name: string, discount = '') =>
      addCategoryEntry(list, { name, discount, type: 'PATIENT_CATEGORY' });
    expect(category('None')).toEqual({ error: SETTINGS_MESSAGES.categoryNone });
    expect(category('senior')).toEqual({ error: SETTINGS_MESSAGES.categoryDuplicate });
    expect(category('Staff', 'abc')).toEqual({ error: SETTINGS_MESSAGES.discountInvalid });
    expect(category('Staff', '-1')).toEqual({ error: SETTINGS_MESSAGES.discountInvalid });
    expect(category('Staff', '101')).toEqual({ error: SETTINGS_MESSAGES.discountTooLarge });
    const priority = addCategoryEntry(list, { name: 'Senior', discount: '', type: 'PRIORITY' });
    expect('list' in priority && priority.list[2]).toEqual({
      name: 'Senior',
      discount: 0,
      type: 'PRIORITY',
      disabled: false,
    });
  });
});

describe('CategoryPriorityDialog', () => {
  it('saves both lists whole with the added and disabled entries', SLOW, async () => {
    const { api, dialog, isClosed } = await open({ [SAVE]: { body: { categoriesAndPriorities: [] } } });
    add(dialog, 'Patient categories', 'Staff', '12.5');
    add(dialog, 'Priorities', 'Stat');
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Urgent active' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await snackbarText('status')).toBe(SETTINGS_MESSAGES.updated);
    expect(api.calls('POST', '/api/setting/update/LAB_CATEGORY_PRIORITY')[0]?.json()).toEqual({
      categoriesAndPriorities: [
        { name: 'Senior', discount: 10, type: 'PATIENT_CATEGORY', disabled: false },
        { name: 'Urgent', discount: 0, type: 'PRIORITY', disabled: true },
        { name: 'Staff', discount: 12.5, type: 'PATIENT_CATEGORY', disabled: false },
        { name: 'Stat', discount: 0, type: 'PRIORITY', disabled: false },
      ],
    });
    await waitFor(() => expect(isClosed()).toBe(true));
  });

  it('shows the discount message for a negative discount and keeps the entry out', SLOW, async () => {
    const { api, dialog } = await open();
    add(dialog, 'Patient categories', 'Staff', '-5');
    expect(within(dialog).getByRole('alert').textContent).toBe(SETTINGS_MESSAGES.discountInvalid);
    expect(within(dialog).queryByText('Staff')).toBeNull();
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    // A later save sends the list without the refused entry.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/setting/update/LAB_CATEGORY_PRIORITY')).toHaveLength(1),
    );
    expect(api.calls('POST', '/api/setting/update/LAB_CATEGORY_PRIORITY')[0]?.json()).toEqual({
      categoriesAndPriorities: stored.LAB_CATEGORY_PRIORITY.categoriesAndPriorities,
    });
  });

  it("keeps the entries on a server refusal and shows the server's text", SLOW, async () => {
    const { dialog, isClosed } = await open({
      [SAVE]: { status: 400, body: errorBody(400, 'Refused by server') },
    });
    add(dialog, 'Priorities', 'Stat');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await snackbarText('alert')).toContain('Refused by server');
    expect(within(dialog).getByText('Stat')).toBeTruthy();
    expect(isClosed()).toBe(false);
  });
});
