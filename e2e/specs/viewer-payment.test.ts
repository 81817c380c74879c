import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { RowActions, StudyList } from '../support/pages.js';
import { ViewerScreen, corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const PATIENT = `P${RUN}`.slice(0, 8);
const VIEWER = 'viewer@demo.local';

/**
 * Runs in the page before the app: notes every viewport canvas that appears (the early script's
 * first image, the loading page's, Cornerstone's). The note survives the in-app redirect to /share.
 */
const WATCH_IMAGES = `
  window.__imageSeen = [];
  const look = () => {
    for (const selector of ['[data-testid="viewport-early"] canvas', '[data-testid="first-image-preview"] canvas', 'canvas.cornerstone-canvas']) {
      if (document.querySelector(selector) && !window.__imageSeen.includes(selector)) window.__imageSeen.push(selector);
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
`;

/** The staff side: the row's Payment action and its dialog (payments module). */
class PaymentDialog {
  readonly root: Locator;
  constructor(page: Page, id: number) {
    this.root = page.getByRole('dialog', { name: `Payment — study ${id}` });
  }

  async request(amount: string, note: string): Promise<void> {
    const form = this.root.getByRole('region', { name: 'Request a payment' });
    await form.getByLabel('Amount').fill(amount);
    await form.getByLabel('What it is for (shown to the payer)').fill(note);
    await form.getByRole('button', { name: 'Request payment' }).click();
  }

  get status(): Locator {
    return this.root.getByTestId('payment-status');
  }
}

/** The viewer account's payment page (/share?link={email}). */
class AccountPaymentPage {
  constructor(private readonly page: Page) {}

  get dues(): Locator {
    return this.page.getByRole('region', { name: 'What is due' });
  }

  payNow(): Locator {
    return this.dues.getByRole('link', { name: /^Pay now/ });
  }
}

/**
 * Issue 5 §1 and §6, the payment-needed redirect (spec-core §4 Viewer payment, §2 Login page payment
 * confirm): the center asks for a payment for a study it shared with a viewer account; the viewer
 * opening it sees 'Payment needed' and is taken to /share?link={email}; pays through the provider's
 * link (the test provider's link confirms itself); back through the login page's payment-confirm the
 * study opens.
 */
describe('Viewer payment', () => {
  let study = { uid: '', id: 0 };
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      const file = corpusCopy('ct/study_liver/ct_liver_01.dcm', RUN, { patientName: PATIENT });
      study = { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) };
      // Shared with the viewer account the way the share dialog does it (its e-mail call).
      const shared = await center.page.request.post(`/api/report-status/send-email/${study.id}`, {
        data: { email: VIEWER },
      });
      expect(shared.status(), await shared.text()).toBe(200);
    } finally {
      await center.close();
    }
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('sends the viewer to pay, and opens the study once paid', async () => {
    // The center requests the payment from its report list.
    open = await openSignedIn('center@demo.local', { home: false });
    const list = new StudyList(open.page);
    await list.open('/status');
    const row = list.row(study.id);
    await new RowActions(open.page, row).button(`Payment for study ${study.id}`).click();
    const dialog = new PaymentDialog(open.page, study.id);
    await dialog.request('750', 'Report and images');
    await dialog.status.filter({ hasText: 'Status: Pending' }).waitFor();
    await open.close();

    // The viewer opens the study: 'Payment needed', then the payment page after 2 s.
    open = await openSignedIn(VIEWER, { home: false });
    const { page } = open;
    await page.addInitScript({ content: WATCH_IMAGES });
    await new ViewerScreen(page).open(study.uid, study.id);
    await page.getByText('Payment needed').first().waitFor();
    await page.waitForURL((url) => url.pathname === '/share' && url.searchParams.get('link') === VIEWER);
    // No image was shown while the payment was due: not the early one, not the loading page's.
    expect(await page.evaluate(() => (window as unknown as { __imageSeen: string[] }).__imageSeen)).toEqual(
      [],
    );
    const payment = new AccountPaymentPage(page);
    await payment.dues.getByText('₹750.00').waitFor();
    expect(await payment.dues.getByText('Report and images').count()).toBe(1);

    // Pays through the provider's link; the login page confirms it and goes to /user/get-route.
    await payment.payNow().click();
    await page.waitForURL((url) => url.pathname === '/share' && !url.searchParams.has('link'));
    const info = await page.request.get('/api/customer-report/share-info');
    expect(await info.json()).toEqual({ paymentNotDone: false, paymentPolling: false });

    // The study opens now.
    const viewer = new ViewerScreen(page);
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    expect(await page.getByText('Payment needed').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/viewer/${encodeURIComponent(study.uid)}/${study.id}`);
  });
});
