import { randomUUID } from 'node:crypto';
import { request } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { TStudyDetail, TTurnaroundAtRiskResponse } from '@radflow/core';
import type { TBrowserSession } from '../support/browser.js';
import { withSteadyClock } from '../support/clock.js';
import { StudyList } from '../support/pages.js';
import { waitForSetPasswordLink } from '../support/people.js';
import { storyServer } from '../support/server.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const GROUP_ADMIN = 'group@demo.local';
const ASSIGNOR = 'assignor@demo.local';
const CENTER = 'center@demo.local';
const QUICK_PASSWORD = `Reads-fast-${RUN.slice(-4)}-7`;

/**
 * Issue 24 §4: a study forecast to miss its sign-off limit is listed as at risk before it breaches,
 * and the assignor reassigns it to the suggested doctor in one click from the study list.
 * Set-up through the API (the screens that make it have their own stories): a 20-minute limit, a
 * doctor with two new studies and no history (15 minutes a report: the second is due in 20 and
 * forecast in 30), and a second doctor who is online with nothing to read.
 */
describe('Turnaround at risk', () => {
  const opened: TBrowserSession[] = [];
  const open = async (email: string) => {
    const session = await openSignedIn(email);
    opened.push(session);
    return session;
  };
  afterAll(async () => {
    // The demo group's limit as the other stories expect it: none.
    const admin = await open(GROUP_ADMIN);
    await admin.page.request.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      data: { signOffTimeLimit: null },
    });
    for (const s of opened) await s.close();
  });

  it('an at-risk study is reassigned to the suggested doctor', async () => {
    // The critical-results story moves the server's clock half an hour on; if it does so while this
    // runs, the first study breaches and the story runs again.
    await withSteadyClock((attempt) => atRiskStudyIsReassigned(`${RUN}${attempt}`));
  });

  async function atRiskStudyIsReassigned(tag: string): Promise<void> {
    const admin = await open(GROUP_ADMIN);
    const limit = await admin.page.request.post('/api/setting/update-group/ADMIN_PREFERENCES', {
      data: { signOffTimeLimit: 20 },
    });
    expect(limit.status(), await limit.text()).toBe(200);
    const invite = async (name: string) => {
      const email = `${name.toLowerCase()}-${tag.toLowerCase()}@demo.local`;
      const res = await admin.page.request.post('/api/admin/users', {
        data: { email, identifier: `Dr ${name} ${tag}`, roles: ['ROLE_DOCTOR'], centerId: null },
      });
      expect(res.status(), await res.text()).toBe(200);
      return email;
    };
    const slow = await invite('Slow');
    const quick = await invite('Quick');
    await goOnline(quick);

    const center = await open(CENTER);
    const ids = await createStudiesViaApi(center.page, [`E2E Risk A ${tag}`, `E2E Risk B ${tag}`]);
    const assignor = await open(ASSIGNOR);
    for (const reportId of ids) {
      const res = await assignor.page.request.post('/api/report-status/assign', {
        data: { reportId, assignedTo: slow },
      });
      expect(res.status(), await res.text()).toBe(200);
    }
    const atRiskId = ids[1]!;
    // Whom the server suggests (the online doctor who would finish it first: Quick, or a demo
    // doctor another story left online with a shorter forecast).
    const answer = (await (
      await assignor.page.request.get('/api/turnaround/at-risk')
    ).json()) as TTurnaroundAtRiskResponse;
    const suggested = answer.rows.find((r) => r.id === atRiskId)?.suggested;
    expect(answer.rows.find((r) => r.id === ids[0]!)).toBeUndefined();
    expect(suggested).toBeTruthy();

    const { page } = assignor;
    await new StudyList(page).open('/');
    await page.getByRole('button', { name: /^At risk: \d+$/ }).click();
    const row = page.getByRole('dialog').getByTestId(`at-risk-row-${atRiskId}`);
    await row.getByText(`Dr Slow ${tag}`).waitFor();
    await row.getByText(/ min left$/).waitFor();
    await row.getByRole('button', { name: `Reassign to ${suggested!.name}` }).click();
    await row.waitFor({ state: 'detached' });

    const detail = (await (
      await page.request.get(`/api/report-status/id/${atRiskId}`)
    ).json()) as TStudyDetail;
    expect(detail.assignedTo).toBe(suggested!.email);
  }
});

/** The invited doctor sets a password from the link and beats ONLINE, as an open tab does. */
async function goOnline(email: string): Promise<void> {
  const link = new URL(await waitForSetPasswordLink(email));
  const api = await request.newContext({
    baseURL: storyServer().baseURL,
    extraHTTPHeaders: { 'X-Device-Id': randomUUID(), 'X-Device-Name': 'e2e', Accept: 'application/json' },
  });
  try {
    const set = await api.post('/api/user-create/set-password', {
      data: { token: link.searchParams.get('token'), newPassword: QUICK_PASSWORD },
    });
    expect(set.status(), await set.text()).toBe(200);
    const login = await api.post('/api/do-login', { form: { email, password: QUICK_PASSWORD } });
    expect(login.status(), await login.text()).toBe(200);
    const beat = await api.post('/api/chat-thread/beat', { data: { status: 'ONLINE' } });
    expect(beat.status(), await beat.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}
