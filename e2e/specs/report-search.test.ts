import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { Shell } from '../support/pages.js';
import { waitForSetPasswordLink } from '../support/people.js';
import { setGroupSection } from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const GROUP_ADMIN = 'group@demo.local';
const CENTER = 'center@demo.local';
const DOCTOR = 'doctor@demo.local';
const OTHER_DOCTOR = `dr.search.${RUN.toLowerCase()}@hilltop.example`;
const OTHER_PASSWORD = 'amber-lantern-harbour-58';
const MINE = `SEARCH${RUN}^MINE`;
const THEIRS = `SEARCH${RUN}^THEIRS`;

/** Opens the study for reporting and signs it off with `text` (the reporting calls, as the editor makes them). */
async function signOff(page: Page, id: number, text: string) {
  const lock = await page.request.post(`/api/report/lock/${id}`, { data: {} });
  expect(lock.status(), await lock.text()).toBe(200);
  const save = await page.request.post(`/api/report/save/${id}`, {
    data: {
      name: 'MRI Brain',
      content: `<p>Impression: <strong>${text}</strong></p>`,
      signOff: true,
      baseVersion: null,
    },
  });
  expect(save.status(), await save.text()).toBe(200);
}

/**
 * Issue 24 §2 and §6: a doctor searches 'Meningioma' and finds only the signed-off reports they may
 * see, the word highlighted; another doctor's signed-off report with the same word is not shown.
 */
describe('Report search', () => {
  let admin: TBrowserSession | undefined;
  let other: TBrowserSession | undefined;
  let doctor: TBrowserSession | undefined;
  afterAll(async () => {
    if (admin) {
      await setGroupSection(admin.page, 'USER_ADMIN_VISIBLE_PREFERENCES', { enableReportSearch: false });
      await admin.close();
    }
    await other?.close();
    await doctor?.close();
  });

  it("a doctor searches 'Meningioma' and gets only their visible reports, the word highlighted", async () => {
    admin = await openSignedIn(GROUP_ADMIN);
    await setGroupSection(admin.page, 'USER_ADMIN_VISIBLE_PREFERENCES', { enableReportSearch: true });
    // A second doctor of the group, invited by the group admin, signed in with the password they set.
    const invited = await admin.page.request.post('/api/admin/users', {
      data: { email: OTHER_DOCTOR, identifier: `Dr. ${RUN} Search`, roles: ['ROLE_DOCTOR'] },
    });
    expect(invited.status(), await invited.text()).toBe(200);
    const token = new URL(await waitForSetPasswordLink(OTHER_DOCTOR)).searchParams.get('token');
    other = await openBrowser();
    const set = await other.page.request.post('/api/user-create/set-password', {
      data: { token, newPassword: OTHER_PASSWORD },
    });
    expect(set.status(), await set.text()).toBe(200);
    const login = await other.page.request.post('/api/do-login', {
      form: { email: OTHER_DOCTOR, password: OTHER_PASSWORD },
      headers: { Accept: 'application/json' },
    });
    expect(login.status(), await login.text()).toBe(200);

    const center = await openSignedIn(CENTER, { home: false });
    const [mine, theirs] = await createStudiesViaApi(center.page, [MINE, THEIRS]);
    await center.close();
    doctor = await openSignedIn(DOCTOR);
    await signOff(doctor.page, mine!, `Meningioma of the left convexity ${RUN}`);
    await signOff(other.page, theirs!, `Meningioma along the falx ${RUN}`);

    const { page } = doctor;
    const shell = new Shell(page);
    await shell.menuLink('Report Search').click();
    await shell.expectPath('/search-page');
    const form = page.getByRole('search', { name: 'Report search' });
    const keywords = form.getByRole('combobox', { name: 'Keywords' });
    await keywords.click();
    // The spec's suggestions are offered; the doctor takes the first.
    await page.getByRole('option', { name: 'Meningioma', exact: true }).click();
    expect(await keywords.inputValue()).toBe('Meningioma');
    await form.getByRole('button', { name: 'Search' }).click();
    await page
      .getByTestId('report-search-total')
      .filter({ hasText: /report/ })
      .waitFor();

    const card = page.getByRole('article').filter({ hasText: RUN });
    await card.locator('mark').first().waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.getByRole('heading').textContent()).toMatch(/Mine/i);
    expect(await card.locator('mark').allTextContents()).toEqual(['Meningioma']);
    expect(
      await page
        .getByRole('article')
        .filter({ hasText: /theirs/i })
        .count(),
    ).toBe(0);
    // Every card the doctor is shown has the word marked.
    const cards = await page.getByRole('article').count();
    expect(
      await page
        .getByRole('article')
        .filter({ has: page.locator('mark') })
        .count(),
    ).toBe(cards);
    await card.getByRole('link', { name: 'Open report' }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith('/report-edit/') && url.pathname.endsWith(`/${mine}`),
    );
  });
});
