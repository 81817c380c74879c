import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TPlatformGroup, type TPlatformOverview } from '@radflow/core';
import type { Page } from 'playwright-core';
import type { TBrowserSession } from '../support/browser.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Issue 26 §7: the admin biller sees an expired group, the subscription banner shows for that
 * group's users, and goes once the payment is recorded. The demo group is the platform's operator
 * and also a billed group (platform-billing DECISIONS.md), so its doctor is the group's user.
 */

const GROUP = 'Demo Teleradiology';
let biller: TBrowserSession;
let doctor: TBrowserSession;

async function demoGroup(page: Page): Promise<TPlatformGroup> {
  const res = await page.request.get('/api/platform-billing/overview');
  expect(res.status(), await res.text()).toBe(200);
  const group = ((await res.json()) as TPlatformOverview).groups.find((g) => g.groupName === GROUP);
  expect(group).toBeDefined();
  return group!;
}

beforeAll(async () => {
  biller = await openSignedIn('admin-biller@demo.local', { home: false });
  doctor = await openSignedIn('doctor@demo.local');
  // The demo group on a paid plan (whatever an earlier run left), so the biller can expire it.
  const group = await demoGroup(biller.page);
  const res = await biller.page.request.post(`/api/platform-billing/groups/${group.groupId}/plan`, {
    data: { planCode: 'PER_STUDY', version: group.subscription?.version ?? null },
  });
  expect(res.status(), await res.text()).toBe(200);
});

afterAll(async () => {
  // A failed story must not leave the demo group's banner on for the files after this one.
  const group = biller && (await demoGroup(biller.page).catch(() => null));
  if (group?.subscription?.status === 'EXPIRED') {
    await biller.page.request.post(`/api/platform-billing/groups/${group.groupId}/extend`, {
      data: { version: group.subscription.version, months: 1 },
    });
  }
  await doctor?.close();
  await biller?.close();
});

describe('admin billing (issue 26 §3)', () => {
  it('the biller expires the group, its user sees the banner, the payment takes it away', async () => {
    const banner = doctor.page.getByRole('status').filter({ hasText: MESSAGES.subscriptionWarning });
    expect(await banner.count()).toBe(0);

    await biller.page.goto('/admin-page/billing');
    const groups = biller.page.getByRole('table', { name: 'Groups' });
    const row = groups.getByRole('row').filter({ hasText: GROUP });
    await row.getByRole('button', { name: 'Expire' }).click();
    await row.getByText('EXPIRED', { exact: true }).waitFor();

    await doctor.page.reload();
    await banner.waitFor();

    await row.getByRole('button', { name: 'Record payment' }).click();
    const dialog = biller.page.getByRole('dialog', { name: `Record payment — ${GROUP}` });
    await dialog.getByLabel('Amount (₹)').fill('1500');
    await dialog.getByLabel('Reference').fill(`E2E-${uniqueTag()}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await biller.page.getByText('Payment recorded.').waitFor();
    await row.getByText('ACTIVE', { exact: true }).waitFor();

    await doctor.page.reload();
    await doctor.page.getByRole('banner').waitFor();
    await expect.poll(() => banner.count()).toBe(0);
  });
});
