import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES as M, type TReportTemplate } from '@radflow/core';
import { expectRefusal } from '../../../test/reporting.fixtures.js';
import { studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, type TestClient, createTestApp, setGroupPreference } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, signIn } = studyActionFixtures(() => t);

const TEMPLATES = '/api/report-template/';
const create = (browser: TestClient, body: Record<string, unknown>) =>
  browser.post(TEMPLATES, { content: '<p>Normal study.</p>', ...body });
const update = (browser: TestClient, id: number, body: Record<string, unknown>) =>
  browser.request({ method: 'PUT', url: `${TEMPLATES}${id}`, payload: { content: '<p>x</p>', ...body } });
const remove = (browser: TestClient, id: number) =>
  browser.request({ method: 'DELETE', url: `${TEMPLATES}${id}` });
async function names(browser: TestClient, query = ''): Promise<string[]> {
  const res = await browser.get(`${TEMPLATES}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReportTemplate[]>().map((x) => x.name);
}
function created(res: Awaited<ReturnType<typeof create>>): TReportTemplate {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TReportTemplate>();
}

describe('report templates', () => {
  it("are created, filtered by the study's modality, body part and sex, edited and deleted", async () => {
    const world = await createWorld();
    const { browser: doctor, user } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: other } = await signIn(world, ['ROLE_DOCTOR']);
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);

    const head = created(
      await create(doctor, {
        name: 'CT Brain',
        content: '<p onclick="x()">Brain normal.</p><script>1</script>',
        modalities: ['ct'],
        bodyParts: ['Head'],
      }),
    );
    expect(head).toMatchObject({
      content: '<p>Brain normal.</p>',
      modalities: ['CT'],
      gender: null,
      owner: user.email,
      isOwn: true,
    });
    created(
      await create(doctor, {
        name: 'USG Pelvis (F)',
        modalities: ['US'],
        bodyParts: ['Pelvis'],
        gender: 'F',
      }),
    );
    created(await create(doctor, { name: 'Any study' }));
    created(await create(admin, { name: 'Group MR', modalities: ['MR'] }));
    created(await create(other, { name: 'Not shared' }));
    expectRefusal(await create(doctor, { name: 'CT Brain' }), 409, M.templateNameTaken);
    expectRefusal(await create(doctor, { name: ' ' }), 400);

    expect(await names(doctor)).toEqual(['Any study', 'CT Brain', 'Group MR', 'USG Pelvis (F)']);
    expect(await names(doctor, '?modality=CT&bodyPart=head&gender=M')).toEqual(['Any study', 'CT Brain']);
    expect(await names(doctor, '?modality=US&bodyPart=Pelvis&gender=M')).toEqual(['Any study']);
    expect(await names(doctor, '?modality=US&gender=F')).toEqual(['Any study', 'USG Pelvis (F)']);
    expect(await names(doctor, '?modality=PT,MR')).toEqual(['Any study', 'Group MR']);

    const edited = await update(doctor, head.id, {
      name: 'CT Head',
      modalities: ['CT'],
      bodyParts: ['Head', 'Brain'],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await names(doctor, '?bodyPart=Brain')).toEqual(['Any study', 'CT Head', 'Group MR']);
    expectRefusal(await update(doctor, head.id, { name: 'Any study' }), 409, M.templateNameTaken);

    // Another doctor neither sees nor changes it; the group admin may.
    expectRefusal(await update(other, head.id, { name: 'Mine' }), 404);
    const groupMr = (await doctor.get(TEMPLATES))
      .json<TReportTemplate[]>()
      .find((x) => x.name === 'Group MR');
    expectRefusal(await remove(doctor, groupMr?.id ?? 0), 403, M.templateNotYours);
    expect((await remove(admin, head.id)).statusCode).toBe(200);
    expect(await names(doctor)).toEqual(['Any study', 'Group MR', 'USG Pelvis (F)']);
  });

  it('are refused to a sole doctor when disableCreateTemplateOptionToRadiologist is on, and to read-only roles', async () => {
    const world = await createWorld();
    const { browser: doctor } = await signIn(world, ['ROLE_DOCTOR']);
    const mine = created(await create(doctor, { name: 'Chest X-ray' }));
    const flagged = await createWorld({ disableCreateTemplateOptionToRadiologist: true });
    const { browser: sole } = await signIn(flagged, ['ROLE_DOCTOR']);
    const { browser: typistDoctor } = await signIn(flagged, ['ROLE_DOCTOR', 'ROLE_TYPIST']);
    const { browser: referring } = await signIn(world, ['ROLE_REFERRING_DOCTOR']);

    expectRefusal(await create(sole, { name: 'X' }), 403, M.templateCreateDisabled);
    expect((await create(typistDoctor, { name: 'X' })).statusCode).toBe(200);
    expectRefusal(await create(referring, { name: 'X' }), 403, M.templateNotAllowed);
    expectRefusal(await remove(referring, mine.id), 403);
    expect(await names(sole)).toEqual([]);
  });

  it('refuses a sole doctor edits and deletes of their own templates once the switch is on', async () => {
    const world = await createWorld();
    const { browser: sole, user } = await signIn(world, ['ROLE_DOCTOR']);
    const mine = created(await create(sole, { name: 'Spine' }));
    await setGroupPreference(t.db, world.group.id, 'USER_ADMIN_VISIBLE_PREFERENCES', {
      disableCreateTemplateOptionToRadiologist: true,
    });
    expectRefusal(await remove(sole, mine.id), 403, M.templateCreateDisabled);
    expectRefusal(await update(sole, mine.id, { name: 'Spine 2' }), 403, M.templateCreateDisabled);
    // Reading them stays.
    expect(await names(sole)).toEqual(['Spine']);
    expect(user.roles).toEqual(['ROLE_DOCTOR']);
  });
});
