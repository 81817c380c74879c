import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LAB_SEQUENCE_MAX,
  SETTING_ASSET_MESSAGES as M,
  type TLabPrefixResponse,
  type TRole,
} from '@radflow/core';
import { labPrefixes } from '../../db/schema.js';
import {
  type TestApp,
  type TestClient,
  createTestApp,
  createTestCenter,
  createTestGroup,
} from '../../../test/test-app.js';
import { signedIn } from '../../../test/worklist-test-data.js';

/**
 * GET /api/lab/get-prefix and POST /api/lab/add-prefix (spec-lab §3 lab prefix, §5 all four
 * required, §6 labs supervisor; issue 6 contract): one numbering per center, read by its lab staff
 * and center users, set by the labs supervisor.
 */

let t: TestApp;
let groupId: number;
beforeAll(async () => {
  t = await createTestApp();
  groupId = (await createTestGroup(t.db)).id;
});
afterAll(() => t.close());

const DEFAULTS: TLabPrefixResponse = { prefix: '', sequence: 1, uhidPrefix: '', uhidSequence: 1 };
const GOOD = { prefix: 'INV-', sequence: 1001, uhidPrefix: 'UH/2026/', uhidSequence: 42 };

const newCenter = async () => (await createTestCenter(t.db, { groupId })).id;
const as = async (roles: TRole[], centerId: number | null) =>
  (await signedIn(t, { roles, groupId, centerId })).browser;
const read = async (browser: TestClient) => {
  const res = await browser.get('/api/lab/get-prefix');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TLabPrefixResponse>();
};
const save = (browser: TestClient, body: unknown) => browser.post('/api/lab/add-prefix', body);

describe('lab prefix round trip', () => {
  it('the supervisor sets it; the receptionist and center user of the center read the same; another center keeps its own', async () => {
    const centerId = await newCenter();
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], centerId);
    expect(await read(supervisor)).toEqual(DEFAULTS);

    const res = await save(supervisor, { ...GOOD, prefix: ' INV- ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(GOOD);
    expect(await read(supervisor)).toEqual(GOOD);
    expect(await read(await as(['ROLE_LABS_RECEPTIONIST'], centerId))).toEqual(GOOD);
    expect(await read(await as(['ROLE_CENTER'], centerId))).toEqual(GOOD);

    expect(await read(await as(['ROLE_LABS_SUPERVISOR'], await newCenter()))).toEqual(DEFAULTS);
  });

  it('a second save replaces the first; sequences up to 10^12 (typed as text too) survive', async () => {
    const supervisor = await as(['ROLE_LABS_SUPERVISOR'], await newCenter());
    expect((await save(supervisor, GOOD)).statusCode).toBe(200);
    const big = { prefix: 'B', sequence: String(LAB_SEQUENCE_MAX), uhidPrefix: 'U', uhidSequence: '9' };
    const res = await save(supervisor, big);
    expect(res.statusCode, res.body).toBe(200);
    expect(await read(supervisor)).toEqual({
      prefix: 'B',
      sequence: LAB_SEQUENCE_MAX,
      uhidPrefix: 'U',
      uhidSequence: 9,
    });
  });

  it('a supervisor without a center keeps the group numbering', async () => {
    const first = await as(['ROLE_LABS_SUPERVISOR'], null);
    expect((await save(first, GOOD)).statusCode).toBe(200);
    expect(await read(await as(['ROLE_LABS_SUPERVISOR'], null))).toEqual(GOOD);
  });
});

describe('refused saves answer 4xx and change nothing', () => {
  let supervisor: TestClient;
  beforeAll(async () => {
    supervisor = await as(['ROLE_LABS_SUPERVISOR'], await newCenter());
    expect((await save(supervisor, GOOD)).statusCode).toBe(200);
  });

  it.each([
    ['prefix missing', { ...GOOD, prefix: undefined }, M.prefixRequired, 'prefix'],
    ['prefix blank', { ...GOOD, prefix: '  ' }, M.prefixRequired, 'prefix'],
    ['sequence missing', { ...GOOD, sequence: null }, M.sequenceRequired, 'sequence'],
    ['uhidPrefix missing', { ...GOOD, uhidPrefix: '' }, M.uhidPrefixRequired, 'uhidPrefix'],
    ['uhidSequence missing', { ...GOOD, uhidSequence: '' }, M.uhidSequenceRequired, 'uhidSequence'],
    ['a space in the prefix', { ...GOOD, prefix: 'INV 1' }, M.prefixInvalid, 'prefix'],
    ['a prefix of 21 characters', { ...GOOD, uhidPrefix: 'U'.repeat(21) }, M.prefixInvalid, 'uhidPrefix'],
    ['sequence 0', { ...GOOD, sequence: 0 }, M.sequenceInvalid, 'sequence'],
    ['a fractional sequence', { ...GOOD, uhidSequence: 2.5 }, M.sequenceInvalid, 'uhidSequence'],
    ['a sequence above 10^12', { ...GOOD, sequence: LAB_SEQUENCE_MAX + 1 }, M.sequenceInvalid, 'sequence'],
  ])('%s', async (_name, body, message, field) => {
    const res = await save(supervisor, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: message, additionalInfo: field });
    expect(await read(supervisor)).toEqual(GOOD);
  });

  it('only the labs supervisor posts (receptionist, center user, doctor get 403); GET refuses doctor, typist, assignor', async () => {
    const centerId = await newCenter();
    const rows = await t.db.select().from(labPrefixes);
    for (const roles of [['ROLE_LABS_RECEPTIONIST'], ['ROLE_CENTER'], ['ROLE_DOCTOR']] as TRole[][]) {
      const res = await save(await as(roles, centerId), GOOD);
      expect(res.statusCode, roles[0]).toBe(403);
    }
    for (const roles of [['ROLE_DOCTOR'], ['ROLE_TYPIST'], ['ROLE_ASSIGNOR']] as TRole[][]) {
      expect((await (await as(roles, null)).get('/api/lab/get-prefix')).statusCode, roles[0]).toBe(403);
    }
    expect(await t.db.select().from(labPrefixes)).toEqual(rows);
  });
});
