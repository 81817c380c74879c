import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TReportDraft } from '@radflow/core';
import { reportingCalls, saved } from '../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp } from '../../test/test-app.js';

/**
 * Security issue §2: the app's pages carry a strict Content-Security-Policy (the inline start-up
 * script allowed by its hash, no other inline script, images only ours and data:), may not be framed
 * by another site, send no path in the Referer to other sites, and every answer is nosniff. Report
 * HTML keeps no image of another site (the share page fetched a tracking pixel).
 */

const INLINE_SCRIPT = 'var started=0;function start(){started=1}start()';
let t: TestApp;
let webDir: string;
beforeAll(async () => {
  webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radflow-web-'));
  await fs.mkdir(path.join(webDir, 'assets'));
  await fs.writeFile(
    path.join(webDir, 'index.html'),
    `<!doctype html><html><head><script>${INLINE_SCRIPT}</script><script type="module" src="/assets/app-1.js"></script></head><body>Radflow SPA</body></html>`,
  );
  await fs.writeFile(path.join(webDir, 'assets', 'app-1.js'), 'console.log(1)');
  t = await createTestApp({ webDistDir: webDir });
});
afterAll(async () => {
  await t.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

/** The directives of a CSP header, by name. */
function directives(header: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof header, 'a Content-Security-Policy header').toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the app page', () => {
  it('has a strict CSP: own scripts, the inline start-up script by hash, wasm, no framing by others', async () => {
    for (const url of ['/', '/worklist', '/viewer/1.2.3/4', '/share?link=abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      const hash = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(expect.arrayContaining(["'self'", hash, "'wasm-unsafe-eval'"]));
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(csp['script-src']).not.toContain("'unsafe-eval'");
      expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:']));
      expect(csp['img-src']!.filter((s) => !["'self'", 'data:', 'blob:'].includes(s))).toEqual([]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('sends no Referer path to other sites, and nosniff, on pages, files and API answers', async () => {
    for (const url of ['/', '/assets/app-1.js', '/api/health', '/api/no-such-thing']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });
});

describe('report HTML keeps only our own and inline images', () => {
  const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
  const { lock } = reportingCalls(() => t);

  it("drops another site's image from a saved draft, keeps ours and data:", async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    saved(await lock(doctor, row.id));
    const ours = '<img src="/api/assets/0123456789abcdef0123456789abcdef" alt="logo" />';
    const inline = '<img src="data:image/png;base64,iVBORw0KGgo=" />';
    const res = await doctor.request({
      method: 'PUT',
      url: `/api/report/draft/${row.id}`,
      payload: {
        name: 'CT Head',
        content: `<p>Seen<img src="https://tracker.example/p.gif?u=1" /></p>${ours}${inline}`,
        baseVersion: null,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TReportDraft>().content).toBe(`<p>Seen</p>${ours}${inline}`);
  });
});
