import { afterEach, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { eventually } from '../support/pages.js';
import { ReportEditorScreen, studyRow, type TStudyRowFacts } from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const DOCTOR = 'doctor@demo.local';
const CENTER = 'center@demo.local';

/** The texts of the main report's versions, oldest first (GET /api/report/{id}). */
async function versionTexts(session: TBrowserSession, id: number): Promise<string[]> {
  const res = await session.page.request.get(`/api/report/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  const { reports } = (await res.json()) as {
    reports: { isAddendum: boolean; versions: { content: string }[] }[];
  };
  return reports.find((r) => !r.isAddendum)?.versions.map((v) => v.content) ?? [];
}

/**
 * Issue 21 §7: two tabs of the same doctor on the same report. The second Save used to overwrite
 * the first silently; now it gets the conflict dialog, and keeping mine saves it as a new version
 * with the first tab's text kept before it.
 */
describe('Report editor: two tabs of the same doctor', () => {
  let open: TBrowserSession | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('the stale tab’s Save gets the conflict dialog; Keep mine keeps both texts', async () => {
    let study: TStudyRowFacts;
    const center = await openSignedIn(CENTER, { home: false });
    try {
      const [id] = await createStudiesViaApi(center.page, [`E2E Two tabs ${RUN}`]);
      study = await studyRow(center.page, id!);
    } finally {
      await center.close();
    }

    open = await openSignedIn(DOCTOR, { home: false });
    const tabA = new ReportEditorScreen(open.page);
    const tabB = new ReportEditorScreen(await open.context.newPage());
    await tabA.open(study);
    await tabB.open(study);
    await tabA.editor.waitFor();
    await tabB.editor.waitFor();
    // The toolbar is one row: Style, Size and Font sit beside Bold, not stacked full-width under it.
    await tabA.page.setViewportSize({ width: 1280, height: 720 });
    const tops = await Promise.all(
      ['Text type', 'Font size', 'Font family'].map(async (name) => {
        const box = await tabA.page.getByRole('combobox', { name }).boundingBox();
        return Math.round(box?.y ?? -1);
      }),
    );
    const bold = Math.round((await tabA.button('Bold').boundingBox())?.y ?? -1);
    for (const top of tops) expect(Math.abs(top - bold)).toBeLessThan(12);

    // The doctor works in one tab at a time, the other behind it (a tab behind draws one frame a
    // second, so every action there would wait on it).
    await tabA.page.bringToFront();
    await tabA.type(`Tab A ${RUN}`);
    await tabA.save();
    await tabB.page.bringToFront();
    await tabB.type(`Tab B ${RUN}`);
    await tabB.button('Save').click();

    const dialog = tabB.page.getByRole('dialog', { name: 'This report was saved elsewhere' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('version 1');
    // Nothing of tab B was written by the refused save.
    expect((await versionTexts(open, study.id)).join()).not.toContain(`Tab B ${RUN}`);

    await dialog.getByRole('button', { name: 'Keep mine as a new version' }).click();
    await tabB.page.getByText('Report saved').first().waitFor();
    await eventually(() => versionTexts(open!, study.id).then((v) => v.length)).toBe(2);
    const [first, second] = await versionTexts(open, study.id);
    expect(first).toContain(`Tab A ${RUN}`);
    expect(second).toContain(`Tab B ${RUN}`);
  });
});
