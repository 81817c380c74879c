import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStudyListPage } from '@radflow/core';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { LoginPage, Shell, StudyList, eventually } from '../support/pages.js';
import {
  CentersPage,
  SetPasswordPage,
  UsersPage,
  storeWithAe,
  waitForSetPasswordLink,
} from '../support/people.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Issue 21 §9, the group admin brings their people: the group admin adds a center with a DICOM AE
 * title, a modality sending with that AE title (DCMTK storescu) stores into it, the admin invites a
 * doctor, the doctor sets a password through the e-mailed link and sees the study assigned to them.
 */

const GROUP_ADMIN = 'group@demo.local';
const ASSIGNOR = 'assignor@demo.local';
const tag = uniqueTag();
const AE_TITLE = `E2E${tag}`.slice(0, 16);
const CENTER_NAME = `Hilltop Imaging ${tag}`;
const PATIENT = `PEOPLE${tag}^STORY`;
const DOCTOR_EMAIL = `dr.${tag.toLowerCase()}@hilltop.example`;
const DOCTOR_PASSWORD = 'violet-harbour-42';

let admin: TBrowserSession;
beforeAll(async () => {
  admin = await openSignedIn(GROUP_ADMIN);
});
afterAll(() => admin?.close());

/** The assignor's list call (POST /api/dicom-web/studies/) filtered on the story's patient. */
async function rowsOfPatient(assignor: TBrowserSession) {
  const res = await assignor.page.request.post('/api/dicom-web/studies/', {
    data: { filters: { patientName: `PEOPLE${tag}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as TStudyListPage).content;
}

describe('the group admin brings their people (issue 21 §9)', () => {
  it('adds a center with an AE title; storescu calling with that AE title stores into it', async () => {
    const shell = new Shell(admin.page);
    // Before: no center answers to the AE title, so the DICOM port refuses the association.
    expect(await storeWithAe(AE_TITLE, PATIENT)).not.toBe(0);

    await shell.menuLink('Manage centers').click();
    await shell.expectPath('/manage-centers');
    const centers = new CentersPage(admin.page);
    await centers.addCenter({
      name: CENTER_NAME,
      email: `desk.${tag.toLowerCase()}@hilltop.example`,
      aeTitles: AE_TITLE,
    });
    await centers.row(CENTER_NAME).filter({ hasText: AE_TITLE }).waitFor();

    // The port caches an unknown AE title for 10 s (archive/dicom-services.ts): the modality
    // retries, as real ones do, until the port has read the new title.
    await expect.poll(() => storeWithAe(AE_TITLE, PATIENT), { timeout: 30_000, interval: 500 }).toBe(0);

    const assignor = await openSignedIn(ASSIGNOR, { home: false });
    try {
      await eventually(async () => (await rowsOfPatient(assignor)).map((r) => r.radiologyCenter)).toEqual([
        CENTER_NAME,
      ]);
    } finally {
      await assignor.close();
    }
  });

  it('invites a doctor, who sets a password from the e-mailed link and sees the study assigned to them', async () => {
    const shell = new Shell(admin.page);
    await shell.menuLink('Manage users').click();
    await shell.expectPath('/manage-users');
    const users = new UsersPage(admin.page);
    await users.invite({ email: DOCTOR_EMAIL, name: `Dr. ${tag} Hilltop`, role: 'Doctor' });
    await users.row(DOCTOR_EMAIL).getByText('Invitation pending').waitFor();

    const assignor = await openSignedIn(ASSIGNOR, { home: false });
    try {
      const [row] = await rowsOfPatient(assignor);
      const assigned = await assignor.page.request.post('/api/report-status/assign', {
        data: { reportId: row!.id, assignedTo: DOCTOR_EMAIL },
      });
      expect(assigned.status(), await assigned.text()).toBe(200);
    } finally {
      await assignor.close();
    }

    const link = await waitForSetPasswordLink(DOCTOR_EMAIL);
    const doctor = await openBrowser();
    try {
      await doctor.page.goto(link);
      await doctor.page.getByText(DOCTOR_EMAIL).waitFor();
      await new SetPasswordPage(doctor.page).setPassword(DOCTOR_PASSWORD);
      await doctor.page.getByRole('link', { name: 'Sign in' }).click();
      const login = new LoginPage(doctor.page);
      await eventually(() => login.identifier.inputValue()).toBe(DOCTOR_EMAIL);
      await login.password.fill(DOCTOR_PASSWORD);
      await doctor.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await new Shell(doctor.page).waitUntilSignedIn();

      const list = new StudyList(doctor.page);
      await list.open('/');
      await list.row(`PEOPLE${tag}`).first().waitFor();
      expect(await list.rows.filter({ hasText: `PEOPLE${tag}` }).count()).toBe(1);
    } finally {
      await doctor.close();
    }

    // The link was single use.
    const again = await admin.page.request.post('/api/user-create/set-password', {
      data: { token: new URL(link).searchParams.get('token'), newPassword: 'another-fine-phrase-7' },
    });
    expect(again.status()).toBe(400);
    await admin.page.reload();
    await users.row(DOCTOR_EMAIL).getByText('Active').waitFor();
  });
});
