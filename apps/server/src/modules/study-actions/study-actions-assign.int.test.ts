import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, studyActionFixtures } from '../../../test/study-actions.fixtures.js';
import { type TestApp, createTestApp, createTestUser } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { createWorld, createStudy, signIn, readRow, readEvents, snapshot } = studyActionFixtures(() => t);

async function createDoctor(groupId: number, opts: { active?: boolean } = {}) {
  return createTestUser(t.db, { roles: ['ROLE_DOCTOR'], groupId, active: opts.active ?? true });
}

describe('POST /report-status/assign {reportId, assignedTo}', () => {
  it('assigns to a doctor of the group and unassigns with an empty assignedTo, each on the timeline', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const doctor = await createDoctor(world.group.id);
    const { browser: assignor, user } = await signIn(world, ['ROLE_ASSIGNOR']);

    const assigned = expectStatus(
      await assignor.post('/api/report-status/assign', {
        reportId: row.id,
        assignedTo: doctor.email.toUpperCase(),
      }),
      200,
    );
    expect(assigned).toMatchObject({ assignedTo: doctor.email, status: 'HISTORY_CREATED' });
    expect(assigned.assignedAt).not.toBeNull();
    expect(
      expectStatus(
        await assignor.post('/api/report-status/assign', { reportId: row.id, assignedTo: '' }),
        200,
      ).assignedTo,
    ).toBeNull();
    const events = await readEvents(row.id);
    expect(
      events.map((e) => [e.eventType, e.actorUserId, (e.detail as { assignedTo: unknown }).assignedTo]),
    ).toEqual([
      ['ASSIGNED', user.id, doctor.email],
      ['UNASSIGNED', user.id, null],
    ]);
  });

  it('refuses a center user (403), a signed-off study (409), and a non-doctor or inactive or foreign assignee (400)', async () => {
    const world = await createWorld();
    const open = await createStudy(world);
    const signedOff = await createStudy(world, { status: 'SIGNED_OFF' });
    const doctor = await createDoctor(world.group.id);
    const { browser: center } = await signIn(world, ['ROLE_CENTER']);
    const { browser: admin, user: adminUser } = await signIn(world, ['ROLE_ADMIN']);
    const before = await snapshot(open.id);

    expect(
      (await center.post('/api/report-status/assign', { reportId: open.id, assignedTo: doctor.email }))
        .statusCode,
    ).toBe(403);
    const conflict = await admin.post('/api/report-status/assign', {
      reportId: signedOff.id,
      assignedTo: doctor.email,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('SIGNED_OFF');

    const inactive = await createDoctor(world.group.id, { active: false });
    const foreign = await createDoctor((await createWorld()).group.id);
    for (const assignedTo of [adminUser.email, inactive.email, foreign.email, 'nobody@test.local']) {
      const res = await admin.post('/api/report-status/assign', { reportId: open.id, assignedTo });
      expect(res.statusCode, assignedTo).toBe(400);
      expect(res.json()).toMatchObject({ additionalInfo: 'assignedTo' });
    }
    expect(
      (await admin.post('/api/report-status/assign', { reportId: open.id, assignedTo: 'not-an-email' }))
        .statusCode,
    ).toBe(400);
    expect(await snapshot(open.id)).toEqual(before);

    // A row of another group is not found, whatever the caller's role.
    const elsewhere = await createStudy(await createWorld());
    expect(
      (await admin.post('/api/report-status/assign', { reportId: elsewhere.id, assignedTo: doctor.email }))
        .statusCode,
    ).toBe(404);
  });

  it('leaves one consistent result after two concurrent assigns of the same row', async () => {
    const world = await createWorld();
    const row = await createStudy(world, { status: 'HISTORY_CREATED' });
    const first = await createDoctor(world.group.id);
    const second = await createDoctor(world.group.id);
    const { browser: a } = await signIn(world, ['ROLE_ASSIGNOR']);
    const { browser: b } = await signIn(world, ['ROLE_ADMIN']);
    const answers = await Promise.all([
      a.post('/api/report-status/assign', { reportId: row.id, assignedTo: first.email }),
      b.post('/api/report-status/assign', { reportId: row.id, assignedTo: second.email }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const events = await readEvents(row.id);
    expect(events).toHaveLength(2);
    // The row holds the assignee of the last event written: the later transaction won, entirely.
    const last = events.at(-1)?.detail as { assignedTo: string };
    const finalRow = await readRow(row.id);
    expect(finalRow.assignedToUserId).toBe(last.assignedTo === first.email ? first.id : second.id);
    // The first event's assignee was replaced by the second's (the second saw the first under the lock).
    expect((events[1]?.detail as { previousAssignedToUserId: number | null }).previousAssignedToUserId).toBe(
      last.assignedTo === first.email ? second.id : first.id,
    );
  });
});

describe('POST /report-status/assign-multi {reportId: [...], assignedTo} (ROLE_ASSIGNOR only)', () => {
  it('assigns every row in one go', async () => {
    const world = await createWorld();
    const rows = [await createStudy(world), await createStudy(world, { status: 'LOCKED' })];
    const doctor = await createDoctor(world.group.id);
    const { browser } = await signIn(world, ['ROLE_ASSIGNOR']);
    const res = await browser.post('/api/report-status/assign-multi', {
      reportId: rows.map((r) => r.id),
      assignedTo: doctor.email,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ reportIds: rows.map((r) => r.id), assignedTo: doctor.email });
    for (const row of rows) {
      expect((await readRow(row.id)).assignedToUserId).toBe(doctor.id);
      expect((await readEvents(row.id)).map((e) => e.eventType)).toEqual(['ASSIGNED']);
    }
  });

  it('runs two overlapping multi-assigns one after the other (rows locked in id order: no deadlock)', async () => {
    const world = await createWorld();
    const rows = [await createStudy(world), await createStudy(world), await createStudy(world)];
    const first = await createDoctor(world.group.id);
    const second = await createDoctor(world.group.id);
    const { browser: a } = await signIn(world, ['ROLE_ASSIGNOR']);
    const { browser: b } = await signIn(world, ['ROLE_ASSIGNOR']);
    const [ra, rb] = await Promise.all([
      a.post('/api/report-status/assign-multi', {
        reportId: [rows[2]!.id, rows[0]!.id, rows[1]!.id],
        assignedTo: first.email,
      }),
      b.post('/api/report-status/assign-multi', {
        reportId: [rows[1]!.id, rows[2]!.id, rows[0]!.id],
        assignedTo: second.email,
      }),
    ]);
    expect([ra?.statusCode, rb?.statusCode]).toEqual([200, 200]);
    // Whoever committed last holds every row: the two calls did not interleave.
    const assignees = new Set(
      await Promise.all(rows.map(async (r) => (await readRow(r.id)).assignedToUserId)),
    );
    expect(assignees.size).toBe(1);
  });

  it('is 403 for an admin, and all-or-nothing when one row may not be assigned (409) or seen (404)', async () => {
    const world = await createWorld();
    const open = await createStudy(world);
    const signedOff = await createStudy(world, { status: 'SIGNED_OFF' });
    const foreign = await createStudy(await createWorld());
    const doctor = await createDoctor(world.group.id);
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
    const { browser: assignor } = await signIn(world, ['ROLE_ASSIGNOR']);
    const before = [await snapshot(open.id), await snapshot(signedOff.id)];

    const body = (ids: number[]) => ({ reportId: ids, assignedTo: doctor.email });
    expect((await admin.post('/api/report-status/assign-multi', body([open.id]))).statusCode).toBe(403);
    const conflict = await assignor.post('/api/report-status/assign-multi', body([open.id, signedOff.id]));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain(`study ${signedOff.id} is SIGNED_OFF`);
    const missing = await assignor.post('/api/report-status/assign-multi', body([open.id, foreign.id]));
    expect(missing.statusCode).toBe(404);
    expect(await Promise.all([snapshot(open.id), snapshot(signedOff.id)])).toEqual(before);
  });
});

describe('POST /report-status/auditor-assign and /report-status/audit-status/{id}', () => {
  it('the assignor names an auditor of a signed-off study, who approves then rejects it', async () => {
    const world = await createWorld({ enableAuditorAssignmentFeature: true });
    const row = await createStudy(world, { status: 'SIGNED_OFF' });
    const { browser: assignor } = await signIn(world, ['ROLE_ASSIGNOR']);
    const { browser: auditor, user: auditorUser } = await signIn(world, ['ROLE_AUDITOR']);

    // Before the assignment the auditor does not see the study at all.
    expect(
      (await auditor.post(`/api/report-status/audit-status/${row.id}`, { status: 'APPROVED' })).statusCode,
    ).toBe(404);

    const assigned = expectStatus(
      await assignor.post('/api/report-status/auditor-assign', {
        reportStatusId: row.id,
        auditorEmail: auditorUser.email,
      }),
      200,
    );
    expect(assigned).toMatchObject({ auditor: auditorUser.email, auditStatus: null });
    const approved = expectStatus(
      await auditor.post(`/api/report-status/audit-status/${row.id}`, { status: 'APPROVED' }),
      200,
    );
    expect(approved.auditStatus).toBe('APPROVED');
    expectStatus(
      await auditor.post(`/api/report-status/audit-status/${row.id}`, { status: 'REJECTED' }),
      200,
    );
    expect((await readEvents(row.id)).map((e) => e.eventType)).toEqual([
      'AUDITOR_ASSIGNED',
      'AUDIT_APPROVED',
      'AUDIT_REJECTED',
    ]);
  });

  it('refuses auditor-assign without the switch (403), on an open study (409), to a non-auditor (400)', async () => {
    const off = await createWorld();
    const offRow = await createStudy(off, { status: 'SIGNED_OFF' });
    const { browser: offAssignor } = await signIn(off, ['ROLE_ASSIGNOR']);
    const { user: offAuditor } = await signIn(off, ['ROLE_AUDITOR']);
    const beforeOff = await snapshot(offRow.id);
    const body = (id: number, auditorEmail: string) => ({ reportStatusId: id, auditorEmail });
    expect(
      (await offAssignor.post('/api/report-status/auditor-assign', body(offRow.id, offAuditor.email)))
        .statusCode,
    ).toBe(403);
    expect(await snapshot(offRow.id)).toEqual(beforeOff);

    const on = await createWorld({ enableAuditorAssignmentFeature: true });
    const open = await createStudy(on, { status: 'HISTORY_CREATED' });
    const signedOff = await createStudy(on, { status: 'SIGNED_OFF' });
    const { browser: assignor, user: assignorUser } = await signIn(on, ['ROLE_ASSIGNOR']);
    const { user: auditor } = await signIn(on, ['ROLE_AUDITOR']);
    const { browser: doctor } = await signIn(on, ['ROLE_DOCTOR']);
    const beforeOpen = await snapshot(open.id);
    const conflict = await assignor.post('/api/report-status/auditor-assign', body(open.id, auditor.email));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('HISTORY_CREATED');
    expect(await snapshot(open.id)).toEqual(beforeOpen);
    const beforeSigned = await snapshot(signedOff.id);
    const wrong = await assignor.post(
      '/api/report-status/auditor-assign',
      body(signedOff.id, assignorUser.email),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ additionalInfo: 'auditorEmail' });
    // A doctor cannot assign auditors (the pool does not hold signed-off studies: not found).
    expect([403, 404]).toContain(
      (await doctor.post('/api/report-status/auditor-assign', body(signedOff.id, auditor.email))).statusCode,
    );
    expect(await snapshot(signedOff.id)).toEqual(beforeSigned);
  });

  it('refuses the audit switch to anyone but the assigned auditor (403)', async () => {
    const world = await createWorld({ enableAuditorAssignmentFeature: true });
    const { user: auditor } = await signIn(world, ['ROLE_AUDITOR']);
    const row = await createStudy(world, { status: 'SIGNED_OFF', auditorUserId: auditor.id });
    const { browser: admin } = await signIn(world, ['ROLE_ADMIN']);
    const before = await snapshot(row.id);
    expect(
      (await admin.post(`/api/report-status/audit-status/${row.id}`, { status: 'APPROVED' })).statusCode,
    ).toBe(403);
    expect(
      (await admin.post(`/api/report-status/audit-status/${row.id}`, { status: 'MAYBE' })).statusCode,
    ).toBe(400);
    expect(await snapshot(row.id)).toEqual(before);
  });

  it('refuses the audit switch on a study that is not signed off (409 naming the status)', async () => {
    const world = await createWorld({ enableAuditorAssignmentFeature: true });
    const { browser: auditor, user } = await signIn(world, ['ROLE_AUDITOR']);
    const row = await createStudy(world, { status: 'REPORTED', auditorUserId: user.id });
    const before = await snapshot(row.id);
    const res = await auditor.post(`/api/report-status/audit-status/${row.id}`, { status: 'APPROVED' });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('REPORTED');
    expect(await snapshot(row.id)).toEqual(before);
  });
});
