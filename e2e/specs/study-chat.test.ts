import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();

/** The chat button of a row: its name carries the unseen count ('Chat (2 unseen)'). */
const chatButton = (list: StudyList, patient: string) =>
  list.row(patient).getByRole('button', { name: /^Chat/ });

/**
 * Issue 23 §7: a center and a doctor chat on one study, each in their own browser. The other's
 * message shows as an unseen count on the row; opening the panel shows it and clears the count; a
 * mention is offered after '@', sent, and shown marked to the one mentioned.
 */
describe('Study chat between a center and a doctor', () => {
  const open: TBrowserSession[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('unseen count on the row, cleared by opening the panel, and a mention', async () => {
    const patient = `E2E Chat ${RUN}`;
    const center = await openSignedIn('center@demo.local', { home: false });
    open.push(center);
    await createStudiesViaApi(center.page, [patient]);
    const centerList = new StudyList(center.page);
    await centerList.open('/');
    await centerList.filterBy('Patient', patient, 1);
    await chatButton(centerList, patient).click();
    const centerPanel = center.page.getByTestId('chat-panel');
    const centerBox = centerPanel.getByRole('textbox', { name: 'Message' });
    await centerBox.fill('Please read this one first.');
    await centerBox.press('Enter');
    await centerPanel
      .getByTestId('chat-message')
      .filter({ hasText: 'Please read this one first.' })
      .waitFor();
    await center.page.getByRole('button', { name: 'Close chat' }).click();

    // The doctor (of the pool this unassigned study is in) sees one unseen message on the row.
    const doctor = await openSignedIn('doctor@demo.local');
    open.push(doctor);
    const doctorList = new StudyList(doctor.page);
    await doctorList.waitUntilLoaded();
    await doctorList.filterBy('Patient', patient, 1);
    await eventually(() => chatButton(doctorList, patient).getAttribute('aria-label')).toBe(
      'Chat (1 unseen)',
    );
    await chatButton(doctorList, patient).click();
    const doctorPanel = doctor.page.getByTestId('chat-panel');
    await doctorPanel.getByText('Please read this one first.').waitFor();
    expect(await doctorPanel.getByTestId('chat-message').first().innerText()).toContain('center@demo.local');
    // '@' offers the center's staff (the center user, its backup, …); the pick is written in.
    const doctorBox = doctorPanel.getByRole('textbox', { name: 'Message' });
    await doctorBox.pressSequentially('On it @Demo Cen');
    await doctor.page.getByRole('option', { name: /^Demo Center center@demo\.local/ }).click();
    await doctorBox.pressSequentially('report within the hour.');
    await doctorBox.press('Enter');
    await doctorPanel.getByTestId('chat-mention').filter({ hasText: '@Demo Center' }).waitFor();
    // Shown is seen: with the panel closed, the row's count is gone.
    await doctor.page.getByRole('button', { name: 'Close chat' }).click();
    await eventually(() => chatButton(doctorList, patient).getAttribute('aria-label')).toBe('Chat');

    // The center: a new unseen message on the row (the list asked again), the mention marked.
    await center.page.reload();
    await centerList.waitUntilLoaded();
    await centerList.filterBy('Patient', patient, 1);
    await eventually(() => chatButton(centerList, patient).getAttribute('aria-label')).toBe(
      'Chat (1 unseen)',
    );
    await chatButton(centerList, patient).click();
    const mention = centerPanel.getByTestId('chat-mention');
    await mention.waitFor();
    expect(await mention.innerText()).toBe('@Demo Center');
    await center.page.getByRole('button', { name: 'Close chat' }).click();
    await eventually(() => chatButton(centerList, patient).getAttribute('aria-label')).toBe('Chat');
  });
});
