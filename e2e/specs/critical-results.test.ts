import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { moveServerClock } from '../support/clock.js';
import { readOutbox } from '../support/outbox.js';
import { StudyList, eventually } from '../support/pages.js';
import { ReportEditorScreen, studyRow } from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const DOCTOR = 'doctor@demo.local';
const CENTER = 'center@demo.local';
const GROUP_ADMIN = 'group@demo.local';
/** The demo group's escalation time: core DEFAULT_CRITICAL_ESCALATION_MINUTES (no group setting). */
const ESCALATION_MINUTES = 30;

/**
 * Issue 23 §5 and §7: a critical result closes its loop. The doctor raises it while reporting; it
 * reaches the center at once (the banner, and SMS/e-mail in the outbox); the center acknowledges it;
 * the study's timeline shows raised, delivered and acknowledged.
 */
describe('Critical results: raised, acknowledged, on the timeline', () => {
  let open: TBrowserSession | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('a doctor raises one while reporting; the center acknowledges it; the timeline shows the steps', async () => {
    const patient = `E2E Critical ${RUN}`;
    const finding = `Tension pneumothorax ${RUN}`;
    open = await openSignedIn(CENTER, { home: false });
    const [id] = await createStudiesViaApi(open.page, [patient]);
    const study = await studyRow(open.page, id!);
    await open.close();

    // The doctor, reporting the study, raises it.
    open = await openSignedIn(DOCTOR, { home: false });
    const editor = new ReportEditorScreen(open.page);
    await editor.open(study);
    await editor.button('Critical result').click();
    const dialog = open.page.getByRole('dialog', { name: 'Raise a critical result' });
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await open.page.getByRole('option', { name: 'Urgent (same day)' }).click();
    await dialog.getByRole('textbox', { name: 'Finding' }).fill(finding);
    await dialog.getByRole('button', { name: 'Send critical result' }).click();
    await open.page
      .getByText('Critical result sent to the center and the referring doctor')
      .first()
      .waitFor();
    const section = open.page.getByRole('region', { name: 'Critical results' });
    await section.getByText(`Urgent (same day): ${finding}`).waitFor();
    await section.getByText(/Waiting for acknowledgment/).waitFor();
    // Sent at once to the center, by e-mail (the outbox the server mirrors).
    await eventually(
      () => readOutbox().filter((m) => m.channel === 'EMAIL' && m.body.includes(finding)).length,
    ).toBe(1);
    await open.close();

    // The center sees it at the top of its list and acknowledges it.
    open = await openSignedIn(CENTER, { home: false });
    const { page } = open;
    const list = new StudyList(page);
    await list.open('/status');
    const banner = page.getByRole('region', { name: 'Open critical results' });
    const alert = banner.getByRole('alert').filter({ hasText: finding });
    await alert.waitFor();
    await list.selectTab('All');
    await list.filterBy('Patient', patient, 1);
    expect(await list.row(id!).getByRole('img', { name: 'Open critical result' }).count()).toBe(1);
    await alert.getByRole('button', { name: /^Acknowledge critical result/ }).click();
    await page.getByText('Critical result acknowledged').first().waitFor();
    await alert.waitFor({ state: 'detached' });
    await eventually(() => list.row(id!).getByRole('img', { name: 'Open critical result' }).count()).toBe(0);

    // The study's history shows every step.
    const actions = list.actions(list.row(id!));
    const history = actions.button('Study history');
    if (await history.count()) await history.click();
    else await actions.fromMenu('Study history');
    const timeline = page.getByRole('dialog').getByRole('list', { name: 'Timeline' });
    await timeline.getByText(/Critical result acknowledged/).waitFor();
    await timeline
      .getByText(new RegExp(`Critical result raised · Urgent \\(same day\\): ${finding}`))
      .waitFor();
    expect(await timeline.getByText(/Critical result delivered · E-mail to /).count()).toBeGreaterThanOrEqual(
      1,
    );
  }, 180_000); // three sign-ins and a list on a loaded machine: a ceiling, not a wait

  it('an unacknowledged one escalates to the group admin once its time has passed (test clock)', async () => {
    const patient = `E2E Escalation ${RUN}`;
    const finding = `Aortic dissection ${RUN}`;
    open = await openSignedIn(CENTER, { home: false });
    const [id] = await createStudiesViaApi(open.page, [patient]);
    await open.close();

    // The doctor raises it (the dialog is the story above); nobody acknowledges it.
    open = await openSignedIn(DOCTOR, { home: false });
    const raised = await open.page.request.post('/api/critical-results', {
      data: { entityId: id, category: 'CRITICAL', finding },
    });
    expect(raised.status(), await raised.text()).toBe(200);
    await open.close();

    // The group admin, on their own screen with the bell, has nothing about it yet.
    open = await openSignedIn(GROUP_ADMIN);
    const { page } = open;
    const bell = page.getByRole('button', { name: 'Notifications' });
    // What other stories left for the demo group admin is read first: the bell starts at nothing.
    expect((await page.request.post('/api/notifications/all-seen')).status()).toBe(200);
    await page.reload();
    await eventually(() => bell.getAttribute('title')).toBe('Notifications');
    await bell.click();
    const bellList = page.getByRole('region', { name: 'Notification list' });
    const escalation = bellList.getByRole('button', { name: new RegExp(`Critical result.*${patient}`) });
    await bellList.waitFor();
    expect(await escalation.count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(readOutbox().filter((m) => m.recipient === GROUP_ADMIN && m.body.includes(finding))).toEqual([]);

    // Its time passes on the server's clock; the sweep escalates it and the bell shows it, live.
    moveServerClock((ESCALATION_MINUTES + 1) * 60_000);
    await eventually(() => bell.getAttribute('title')).toBe('Notifications: 1 unread');
    await bell.click();
    await escalation.waitFor();
    // Told by e-mail too (the outbox the server mirrors).
    await eventually(
      () =>
        readOutbox().filter(
          (m) => m.channel === 'EMAIL' && m.recipient === GROUP_ADMIN && m.body.includes(finding),
        ).length,
    ).toBe(1);
    await open.close();

    // The study's history shows the escalation after the raise.
    open = await openSignedIn(CENTER, { home: false });
    const list = new StudyList(open.page);
    await list.open('/status');
    await list.selectTab('All');
    await list.filterBy('Patient', patient, 1);
    const actions = list.actions(list.row(id!));
    const history = actions.button('Study history');
    if (await history.count()) await history.click();
    else await actions.fromMenu('Study history');
    const timeline = open.page.getByRole('dialog').getByRole('list', { name: 'Timeline' });
    await timeline.getByText(/Critical result escalated to the group admins/).waitFor();
    await timeline
      .getByText(new RegExp(`Critical result raised · Critical \\(immediate\\): ${finding}`))
      .waitFor();
  }, 180_000); // three sign-ins and a list on a loaded machine: a ceiling, not a wait
});
