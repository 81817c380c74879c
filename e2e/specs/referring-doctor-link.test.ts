import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, confirmDialog, eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const REFERRING_DOCTOR = 'referring-doctor@demo.local';
const RUN = uniqueTag();

/**
 * Issue 21 §5: the center links a study to a referring doctor of its group from the row's Share
 * dialog and from Edit details (the picker reads GET /api/user/mapping, which gives a center the
 * group's referring doctors, core user-directory.ts); the referring doctor then finds the study in
 * their own list.
 */
describe('Referring doctor: the center links a study, the referring doctor sees it', () => {
  const shared = `E2E Referral Share ${RUN}`;
  const detailed = `E2E Referral Details ${RUN}`;
  let open: TBrowserSession | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  /** Picks the referring doctor in a dialog's 'Referring doctor' picker. */
  async function pickReferringDoctor(session: TBrowserSession, dialogName: RegExp) {
    const dialog = session.page.getByRole('dialog', { name: dialogName });
    await dialog.getByRole('combobox', { name: 'Referring doctor' }).click();
    await session.page.getByRole('option', { name: REFERRING_DOCTOR, exact: true }).click();
    return dialog;
  }

  it('the center picks the referring doctor in Share and in Edit details; both links are saved', async () => {
    open = await openSignedIn('center@demo.local', { home: false });
    const { page } = open;
    const [sharedId, detailedId] = await createStudiesViaApi(page, [shared, detailed]);
    const list = new StudyList(page);
    await list.open('/status');
    await list.filterBy('Patient', RUN, 2);

    await list.actions(list.row(sharedId!)).fromMenu('Share');
    const share = await pickReferringDoctor(open, /^Share study/);
    await share.getByRole('button', { name: 'Save referring doctor' }).click();
    await confirmDialog(page);
    await page.getByText('Referring doctor saved').waitFor();
    await share.getByRole('button', { name: 'Close' }).click();

    await list.actions(list.row(detailedId!)).button('Edit details').click();
    const details = await pickReferringDoctor(open, /^Edit study details/);
    await details.getByLabel(/^Patient id/).fill(`PID-${RUN}`);
    await details.getByLabel(/^Referring physician name/).fill('Dr. Referrer');
    await details.getByLabel(/^Patient mobile/).fill('9876543210');
    await details.getByRole('button', { name: 'Send for reporting' }).click();
    await details.waitFor({ state: 'hidden' });

    for (const id of [sharedId!, detailedId!]) {
      const res = await page.request.get(`/api/report-status/id/${id}`);
      expect(res.status(), await res.text()).toBe(200);
      expect(((await res.json()) as { referringDoctor: string | null }).referringDoctor).toBe(
        REFERRING_DOCTOR,
      );
    }
  });

  it('the referring doctor finds both studies in their list', async () => {
    open = await openSignedIn(REFERRING_DOCTOR);
    const list = new StudyList(open.page);
    await list.waitUntilLoaded();
    await list.filterBy('Patient', RUN, 2);
    await eventually(async () => (await list.rows.allInnerTexts()).join('\n')).toContain(shared);
    expect((await list.rows.allInnerTexts()).join('\n')).toContain(detailed);
  });
});
