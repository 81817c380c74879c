import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import {
  CreateStudyDialog,
  Shell,
  StudyList,
  closeMenu,
  confirmDialog,
  eventually,
} from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const FIXTURES = resolve(import.meta.dirname, '../../packages/dicom/test-fixtures');
// A single CT image no other story uploads: its Study Instance UID becomes the new study's.
const CT_IMAGE = resolve(FIXTURES, 'ct/ct_small_128x128_explicit_le.dcm');

const RUN = uniqueTag();

/**
 * The worklist stories of issue 4 §6: the center uploads and sends for reporting, the assignor
 * assigns, the doctor finds it under Pending and tags it and untags it (one study passed along, in
 * order); the center marks another study urgent and deletes a third (its own studies).
 */
describe('Worklist: from the center to the doctor', () => {
  const patient = `E2E Send ${RUN}`;
  let open: TBrowserSession | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('a center creates a study with an image and sends it for reporting', async () => {
    open = await openSignedIn('center@demo.local');
    const { page } = open;
    const list = new StudyList(page);
    await list.waitUntilLoaded();

    const dialog = new CreateStudyDialog(page);
    await dialog.open(new Shell(page));
    await dialog.field('Patient name').fill(patient);
    await dialog.choose('Modality', 'CT');
    await dialog.field('Patient age').fill('52Y');
    await dialog.choose('Patient gender', 'Female');
    await dialog.field('Study name').fill('CT Chest Plain');
    await dialog.field('History').fill('Cough for three weeks');
    await dialog.pickFiles([CT_IMAGE]);
    await dialog.submit();
    // With nothing refused the dialog closes itself once the image is stored.
    await dialog.root.waitFor({ state: 'hidden', timeout: 30_000 });

    await list.filterBy('Patient', patient, 1);
    const row = list.row(patient);
    // Not among the center's default columns (issue 21 §6): one tick away in Column settings.
    await list.showColumns(['Series/Images', 'Referral']);
    await eventually(() => list.cellText(row, 'Series/Images')).toMatch(/^1\/1/);
    expect(await list.cellText(row, 'Report Status')).toBe('CREATED');

    await list.actions(row).button('Edit details').click();
    const details = page.getByRole('dialog', { name: /^Edit study details/ });
    await details.waitFor();
    await details.getByLabel(/^Patient id/).fill(`PID-${RUN}`);
    await details.getByLabel(/^Referring physician name/).fill('Dr. Referrer');
    await details.getByLabel(/^Patient mobile/).fill('9876543210');
    // What the center typed at creation is in the form already.
    expect(await details.getByLabel(/^History/).inputValue()).toBe('Cough for three weeks');
    expect((await details.getByRole('combobox', { name: /^Patient sex/ }).innerText()).trim()).toBe('Female');
    await details.getByRole('button', { name: 'Send for reporting' }).click();
    await details.waitFor({ state: 'hidden' });

    // spec-core §4: HISTORY_CREATED is displayed as SENT.
    await eventually(() => list.cellText(row, 'Report Status')).toBe('SENT');
    expect(await list.cellText(row, 'Referral')).toBe('Dr. Referrer');
    await list.resetColumns();
  });

  it('the assignor finds the sent study by patient name and assigns it to the demo doctor', async () => {
    open = await openSignedIn('assignor@demo.local');
    const { page } = open;
    const list = new StudyList(page);
    await list.waitUntilLoaded();
    await list.filterBy('Patient', patient, 1);
    const row = list.row(patient);
    expect(await list.cellText(row, 'Report Status')).toBe('SENT');
    expect(await list.cellText(row, 'Assigned')).toBe('—');

    await list.actions(row).button('Assign doctor').click();
    const dialog = page.getByRole('dialog', { name: 'Assign doctor' });
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: 'Doctor' }).click();
    await page.getByRole('option', { name: 'doctor@demo.local', exact: true }).click();
    await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    await eventually(() => list.cellText(row, 'Assigned')).toMatch(/Demo Doctor|doctor@demo\.local/);
    // The assignor's queues: no longer Unassigned, now Assigned.
    await list.selectTab('Unassigned');
    await eventually(() => list.row(patient).count()).toBe(0);
    await list.selectTab('Assigned');
    await list.row(patient).waitFor();
    await list.selectTab('All');
  });

  it('the doctor finds it under Pending, tags it and removes the tag', async () => {
    open = await openSignedIn('doctor@demo.local');
    const { page } = open;
    const list = new StudyList(page);
    await list.waitUntilLoaded();
    await list.selectTab('Pending');
    await list.filterBy('Patient', patient, 1);
    const row = list.row(patient);
    expect(await list.cellText(row, 'Report Status')).toBe('SENT');
    // Issue 21 §5: the doctor's list says the study is theirs.
    expect(await list.cellText(row, 'Assigned')).toBe('You');
    await list.showColumns(['Tag']);
    expect(await list.cellText(row, 'Tag')).toBe('—');

    const tag = `e2e-${RUN.toLowerCase()}`;
    await list.actions(row).fromMenu('Tags');
    const tags = page.getByRole('dialog', { name: /^Tags/ });
    await tags.waitFor();
    await tags.getByRole('combobox', { name: 'Tag' }).fill(tag);
    await tags.getByRole('button', { name: 'Assign tag' }).click();
    await confirmDialog(page);
    await tags.getByRole('list', { name: 'Tags of this study' }).getByText(tag, { exact: true }).waitFor();
    await tags.getByRole('button', { name: 'Close', exact: true }).click();
    await tags.waitFor({ state: 'hidden' });
    await eventually(() => list.cellText(row, 'Tag')).toBe(tag);

    await list.actions(row).fromMenu('Tags');
    await tags.waitFor();
    await tags.getByRole('button', { name: `Delete tag ${tag}` }).click();
    await confirmDialog(page);
    await tags.getByText('No tag yet').waitFor();
    await tags.getByRole('button', { name: 'Close', exact: true }).click();
    await tags.waitFor({ state: 'hidden' });
    await eventually(() => list.cellText(row, 'Tag')).toBe('—');

    // Still pending (not reported): absent from Signed Off.
    await list.selectTab('Signed Off');
    await eventually(() => list.row(patient).count()).toBe(0);
    await list.selectTab('Pending');
    await list.row(patient).waitFor();
    await list.resetColumns();
  });
});

describe('Worklist: the center marks a study urgent and deletes another', () => {
  let open: TBrowserSession | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('marks one urgent (urgent colour, Urgent tab) and deletes another after confirming', async () => {
    const prefix = `E2E Act ${uniqueTag()}`;
    const urgentName = `${prefix} Urgent`;
    const deletedName = `${prefix} Deleted`;
    open = await openSignedIn('center@demo.local', { home: false });
    const { page } = open;
    const [urgentId, deletedId] = await createStudiesViaApi(page, [urgentName, deletedName]);
    const list = new StudyList(page);
    await list.open('/status');
    await list.selectTab('All');
    await list.filterBy('Patient', prefix, 2);

    const urgent = list.row(urgentId!);
    expect(await urgent.getAttribute('data-row-colour')).not.toBe('urgent');
    await list.actions(urgent).fromMenu('Mark urgent');
    await confirmDialog(page);
    await eventually(() => urgent.getAttribute('data-row-colour')).toBe('urgent');
    // The mark toggles: the menu now offers to remove it.
    const removeItem = await list.actions(urgent).menuItem('Remove urgent');
    await closeMenu(page);
    await removeItem.waitFor({ state: 'hidden' });

    await list.selectTab('Urgent');
    await list.row(urgentId!).waitFor();
    await eventually(() => list.row(deletedId!).count()).toBe(0);
    await list.selectTab('All');

    const deleted = list.row(deletedId!);
    await deleted.waitFor();
    await list.actions(deleted).fromMenu('Delete study');
    await confirmDialog(page);
    await eventually(() => list.cellText(deleted, 'Report Status')).toMatch(/^(DELETED|BACKED_UP)$/);
    // spec-core §4: a deleted study's actions are gone or disabled (the report button stays,
    // disabled); View stays only to say it is deleted.
    await eventually(() => list.actions(deleted).button('Edit details').count()).toBe(0);
    // Nothing in the overflow menu would be enabled, so there is none: the report button sits on the
    // row, disabled.
    expect(await list.actions(deleted).more.count()).toBe(0);
    expect(await list.actions(deleted).button('Open report').isDisabled()).toBe(true);
    await list.actions(deleted).button('View images').click();
    await page.getByText('Study has been deleted').first().waitFor();
    expect(await list.cellText(urgent, 'Report Status')).toBe('CREATED');
  });
});
