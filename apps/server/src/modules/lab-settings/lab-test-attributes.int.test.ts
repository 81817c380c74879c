import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_ATTRIBUTE_MESSAGES, type TLabPreferences, type TRole } from '@radflow/core';
import { labAuditEvents } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';
import { ATTRIBUTES_STALE } from './lab-test-attributes.js';

/**
 * LAB_TEST_ATTRIBUTES (spec-lab §3): the supervisor saves the film size and contrast definitions
 * with PUT /api/lab/test-attributes; GET /api/lab/get-preferences answers them to the lab.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const film = {
  type: 'MODALITY_BASED_FILM_SIZE',
  modality: 'DX',
  filmSize: [
    { size: '10x12', price: 100, default: false },
    { size: '14x17', price: 150.5, default: true },
  ],
};
const contrast = {
  type: 'MODALITY_BASED_CONTRAST',
  modality: 'CT',
  contrastVolume: [{ volume: '50 ml', price: 800, default: true }],
};

async function lab() {
  const group = await createTestGroup(t.db);
  const center = await createTestCenter(t.db, { groupId: group.id });
  const at = async (roles: TRole[], centerId: number | null = center.id) =>
    (await signedIn(t, { roles, groupId: group.id, centerId })).browser;
  return { group, at, supervisor: await at(['ROLE_LABS_SUPERVISOR']) };
}
const save = (browser: TestClient, payload: unknown) =>
  browser.request({ method: 'PUT', url: '/api/lab/test-attributes', payload: payload as object });
const prefsOf = async (browser: TestClient) =>
  (await browser.get('/api/lab/get-preferences')).json<TLabPreferences>().LAB_TEST_ATTRIBUTES;

describe('test attributes', () => {
  it('the supervisor saves them; the lab reads them in get-preferences; another lab does not', async () => {
    const { supervisor, group, at } = await lab();
    const receptionist = await at(['ROLE_LABS_RECEPTIONIST']);
    expect(await prefsOf(receptionist)).toEqual({ data: [] });
    expect((await supervisor.get('/api/lab/test-attributes')).json()).toEqual({ data: [], version: 0 });

    const res = await save(supervisor, { data: [film, contrast], version: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: [film, contrast], version: 1 });
    expect(await prefsOf(receptionist)).toEqual({ data: [film, contrast] });
    expect(await prefsOf(await at(['ROLE_CENTER']))).toEqual({ data: [film, contrast] });

    const otherCenter = await createTestCenter(t.db, { groupId: group.id });
    expect(await prefsOf(await at(['ROLE_LABS_RECEPTIONIST'], otherCenter.id))).toEqual({ data: [] });
    expect(await prefsOf((await lab()).supervisor)).toEqual({ data: [] });

    const audit = await t.db
      .select()
      .from(labAuditEvents)
      .where(eq(labAuditEvents.entity, 'LAB_TEST_ATTRIBUTES'));
    expect(audit.some((a) => a.groupId === group.id && a.action === 'UPDATE')).toBe(true);
  });

  it('a stale version gets 409 and the stored list stays', async () => {
    const { supervisor } = await lab();
    expect((await save(supervisor, { data: [film], version: 0 })).statusCode).toBe(200);
    const stale = await save(supervisor, { data: [contrast], version: 0 });
    expect([stale.statusCode, stale.json<{ errorDescription: string }>().errorDescription]).toEqual([
      409,
      ATTRIBUTES_STALE,
    ]);
    expect((await supervisor.get('/api/lab/test-attributes')).json()).toEqual({ data: [film], version: 1 });
    expect((await save(supervisor, { data: [], version: 1 })).json()).toEqual({ data: [], version: 2 });
  });

  it('two defaults in a list, or two lists of one kind for a modality, are 400', async () => {
    const { supervisor } = await lab();
    const twoDefaults = { ...film, filmSize: film.filmSize.map((c) => ({ ...c, default: true })) };
    for (const [data, message] of [
      [[twoDefaults], TEST_ATTRIBUTE_MESSAGES.oneDefault],
      [[film, film], TEST_ATTRIBUTE_MESSAGES.duplicateModality('DX')],
    ] as const) {
      const res = await save(supervisor, { data, version: 0 });
      expect([res.statusCode, res.json<{ errorDescription: string }>().errorDescription]).toEqual([
        400,
        message,
      ]);
    }
  });

  it('only the supervisor saves; roles without the lab menu get 403', async () => {
    const { at } = await lab();
    for (const roles of [['ROLE_LABS_RECEPTIONIST'], ['ROLE_CENTER']] as TRole[][]) {
      expect((await save(await at(roles), { data: [film], version: 0 })).statusCode).toBe(403);
    }
    expect((await (await at(['ROLE_DOCTOR'])).get('/api/lab/test-attributes')).statusCode).toBe(403);
  });
});
