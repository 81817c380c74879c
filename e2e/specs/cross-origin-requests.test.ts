import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TBrowserSession } from '../support/browser.js';
import { StudyList, confirmDialog, eventually } from '../support/pages.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Security issue §1 as a browser sees it: a page served from another port of 127.0.0.1 — the same
 * *site*, so the browser sends our SameSite=Lax session cookie with its form posts and fetches —
 * tries to mark the victim's study urgent, e-mail its share link to an outsider and sign the victim
 * in as the attacker. Each is refused; the app itself, on its own origin, still works.
 * (server plugins/request-origin.ts; plugins/DECISIONS.md "Requests from our page")
 */

/** The attacker's site: answers `/` with the HTML of the current `page` (set per test). */
function startAttackerSite(): Promise<{ server: Server; origin: string; serve(html: string): void }> {
  let html = '<!doctype html><title>nothing</title>';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, serve: (next) => (html = next) });
    }),
  );
}

/** A page that posts a hidden form to `action` as soon as it loads. */
const autoSubmittingForm = (
  action: string,
  fields: Record<string, string>,
  enctype: string,
) => `<!doctype html>
<title>You won a prize</title>
<form id="f" method="POST" action="${action}" enctype="${enctype}">
${Object.entries(fields)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
  .join('\n')}
</form>
<script>document.getElementById('f').submit();</script>`;

/** The attacker page's POST to `path` on our server, as it reached us (status only). */
async function visitAndCatch(page: Page, attackerUrl: string, baseURL: string, path: string) {
  const answered = page.waitForResponse(
    (response) => response.url() === `${baseURL}${path}` && response.request().method() === 'POST',
  );
  await page.goto(attackerUrl);
  return answered;
}

describe('Requests from another origin of the same site are refused; the app still works', () => {
  let victim: TBrowserSession;
  let attacker: Awaited<ReturnType<typeof startAttackerSite>>;
  let studyId: number;
  const prefix = `E2E Csrf ${uniqueTag()}`;

  beforeAll(async () => {
    attacker = await startAttackerSite();
    victim = await openSignedIn('center@demo.local', { home: false });
    [studyId] = (await createStudiesViaApi(victim.page, [prefix])) as [number];
  });
  afterAll(async () => {
    await victim?.close();
    await new Promise((resolve) => attacker?.server.close(resolve));
  });

  const readStudy = async () => {
    const res = await victim.page.request.get(`/api/report-status/id/${studyId}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as { urgent: boolean; sharedEmails: string[]; patientName: string };
  };

  it("refuses another origin's form posts made with the victim's cookie, and nothing changes", async () => {
    const { page, baseURL } = victim;
    for (const [path, fields, enctype] of [
      [`/api/report-status/urgent/${studyId}`, { x: '1' }, 'application/x-www-form-urlencoded'],
      [`/api/report-status/update-details/${studyId}`, { patientName: 'EVIL^HACKER' }, 'multipart/form-data'],
      [
        `/api/report-status/send-email/${studyId}`,
        { '{"email":"outsider@evil.example","x":"': '"}' },
        'text/plain',
      ],
    ] as const) {
      attacker.serve(autoSubmittingForm(`${baseURL}${path}`, fields, enctype));
      const answer = await visitAndCatch(page, `${attacker.origin}/`, baseURL, path);
      expect(answer.status(), `${enctype} form to ${path}`).toBe(403);
    }
    const study = await readStudy();
    expect(study.urgent).toBe(false);
    expect(study.sharedEmails).toEqual([]);
    expect(study.patientName).toBe(prefix);
  });

  it("refuses another origin's fetch with the victim's cookie (no-cors, credentials included)", async () => {
    const { page, baseURL } = victim;
    const path = `/api/report-status/send-email/${studyId}`;
    attacker.serve(`<!doctype html><title>fetch</title><script>
      fetch(${JSON.stringify(`${baseURL}${path}`)}, {
        method: 'POST', mode: 'no-cors', credentials: 'include',
        body: new URLSearchParams({ email: 'outsider@evil.example' }),
      });
    </script>`);
    const answer = await visitAndCatch(page, `${attacker.origin}/`, baseURL, path);
    expect(answer.status()).toBe(403);
    expect((await readStudy()).sharedEmails).toEqual([]);
  });

  it("refuses another origin's sign-in form (login CSRF): the victim stays who they are", async () => {
    const { page, baseURL } = victim;
    attacker.serve(
      autoSubmittingForm(
        `${baseURL}/api/do-login`,
        { email: 'doctor@demo.local', password: 'demo12345' },
        'application/x-www-form-urlencoded',
      ),
    );
    const answer = await visitAndCatch(page, `${attacker.origin}/`, baseURL, '/api/do-login');
    expect(answer.status()).toBe(403);
    const me = await page.request.get('/api/user/');
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('center@demo.local');
  });

  it('the app on its own origin still changes the study (device headers, our Origin)', async () => {
    const { page } = victim;
    const list = new StudyList(page);
    await list.open('/status');
    await list.selectTab('All');
    await list.filterBy('Patient', prefix, 1);
    const row = list.row(studyId);
    await list.actions(row).fromMenu('Mark urgent');
    await confirmDialog(page);
    await eventually(() => row.getAttribute('data-row-colour')).toBe('urgent');
    expect((await readStudy()).urgent).toBe(true);
  });
});
