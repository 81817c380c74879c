import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TRole } from '@radflow/core';
import { reportingCalls, saved } from '../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp } from '../../test/test-app.js';

/**
 * Security issue §3: input PostgreSQL cannot store is the caller's mistake, so a 400 naming the
 * field, never a 500 — a NUL character in any text (JSON, form, query or path), and an id from 2^31
 * up (the id columns are 32-bit integers). Checked across the route table (the OpenAPI document),
 * not route by route.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn } = studyActionFixtures(() => t);
const { lock } = reportingCalls(() => t);

const NUL = '\u0000';
const TOO_BIG = 2 ** 31;

function expect400Naming(res: LightMyRequestResponse, field: string, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
  expect(res.json(), what).toMatchObject({ errorStatusCode: 400, additionalInfo: field });
}

describe('a NUL character in text is 400 naming the field', () => {
  it('in JSON bodies (top level and nested), the sign-in form, the query and the path', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const { browser: group } = await signIn(world, ['ROLE_GROUP']);
    saved(await lock(doctor, row.id));
    const anonymous = doctor.constructor as new (app: TestApp['app']) => TestClient;
    const visitor = new anonymous(t.app);

    expect400Naming(
      await visitor.post('/api/do-login', { email: `a${NUL}@b.c`, password: 'x' }),
      'email',
      'do-login JSON',
    );
    expect400Naming(
      await visitor.post('/api/do-login', { email: 'a@b.c', password: `x${NUL}` }),
      'password',
      'do-login JSON password',
    );
    expect400Naming(
      await visitor.request({
        method: 'POST',
        url: '/api/do-login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%00%40b.c&password=x',
      }),
      'email',
      'do-login form',
    );
    expect400Naming(
      await doctor.request({
        method: 'PUT',
        url: `/api/report/draft/${row.id}`,
        payload: { name: 'CT', content: `<p>a${NUL}b</p>`, baseVersion: null },
      }),
      'content',
      'report draft',
    );
    expect400Naming(
      await center.post(`/api/report-status/update-details/${row.id}`, { patientName: `ROY${NUL}ANNA` }),
      'patientName',
      'update-details',
    );
    expect400Naming(
      await doctor.post('/api/report-tag/add-tags', { reportStatusId: row.id, tag: `x${NUL}` }),
      'tag',
      'add tag',
    );
    expect400Naming(
      await group.post('/api/user/audit/search', { filters: { email: `a${NUL}` } }),
      'filters.email',
      'audit search filter',
    );
    expect400Naming(
      await center.post('/api/report-status/', { filters: { patient: `a${NUL}` } }),
      'filters.patient',
      'study list filter',
    );
    expect400Naming(await doctor.get('/api/report-template/?modality=C%00T'), 'modality', 'query');
    expect400Naming(await visitor.get('/api/share/abc%00def'), 'link', 'path');
  });
});

/** The OpenAPI document's operations with path parameters. */
async function operationsWithPathParams(browser: TestClient) {
  const doc = (await browser.get('/api/openapi.json')).json<{
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ in: string; name: string; schema?: { type?: string } }> }>
    >;
  }>();
  const found: Array<{ method: string; path: string; params: Array<{ name: string; integer: boolean }> }> =
    [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const params = (op.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => ({ name: p.name, integer: p.schema?.type === 'integer' || p.schema?.type === 'number' }));
      if (params.length > 0) found.push({ method: method.toUpperCase(), path, params });
    }
  }
  return found;
}

describe('an id from 2^31 up is 400 naming the field', () => {
  it('in the path of every route of the route table', async () => {
    const world = await createWorld();
    const roles: TRole[][] = [['ROLE_ADMIN'], ['ROLE_CENTER'], ['ROLE_GROUP'], ['ROLE_DOCTOR']];
    const browsers = await Promise.all(roles.map(async (r) => (await signIn(world, r)).browser));
    const operations = await operationsWithPathParams(browsers[0]!);
    expect(operations.length).toBeGreaterThan(30);
    const integerRoutes: string[] = [];
    const failures: string[] = [];
    for (const { method, path, params } of operations) {
      const url = params.reduce((u, p) => u.replace(`{${p.name}}`, String(TOO_BIG)), path);
      const what = `${method} ${path}`;
      // The first role the route lets in (role checks come before the input is read).
      let res: LightMyRequestResponse | undefined;
      for (const browser of browsers) {
        res = await browser.request({
          method: method as 'GET',
          url,
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        if (res.statusCode !== 403 && res.statusCode !== 401) break;
      }
      const answer = res!;
      if (answer.statusCode >= 500) failures.push(`${what}: ${answer.statusCode}`);
      // An id parameter (id, reportStatusId, ...) of an integer column; the role checks come first.
      const id = params.find((p) => p.integer && /^id$|Id$/.test(p.name));
      if (id && answer.statusCode !== 403 && answer.statusCode !== 401) {
        integerRoutes.push(what);
        const named = answer.json<{ additionalInfo?: string | null }>().additionalInfo ?? null;
        // The id is named, unless the call had other bad input too: the other path parameters got
        // the same number, a body call got `{}` (validation names the first problem).
        const otherInput =
          params.some((p) => p !== id && p.name === named) || (method !== 'GET' && method !== 'DELETE');
        if (answer.statusCode !== 400 || (named !== id.name && !otherInput)) {
          failures.push(`${what}: ${answer.statusCode} ${String(named)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(integerRoutes.length).toBeGreaterThan(20);
  });

  it('in JSON bodies', async () => {
    const world = await createWorld();
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
    expect400Naming(
      await doctor.post('/api/report-tag/add-tags', { reportStatusId: TOO_BIG, tag: 'x' }),
      'reportStatusId',
      'add tag',
    );
    expect400Naming(
      await admin.post('/api/report-status/assign-multi', { reportId: [1, TOO_BIG], assignedTo: null }),
      'reportId.1',
      'assign',
    );
  });
});
