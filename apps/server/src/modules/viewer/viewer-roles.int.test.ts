import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type TRole } from '@radflow/core';
import type { TestClient } from '../../../test/test-app.js';
import { type TestApp, createTestApp, uniqueMobile, signIn, type TTestUser } from '../../../test/test-app.js';
import { createTestStudy, createTestWorld, mapTestUser } from '../../../test/worklist-test-data.js';

/**
 * Every role against the viewer's calls on one study it can see (issue 5 §2, spec-core §5/§6): who
 * reads the drawings, who may draw, who gets nothing. The expectation is written by hand from the
 * spec's read-only roles and the module's DECISIONS.md, not from the core rule the server uses.
 */

/** spec-core §5 read-only roles, plus center backup (read-only by name: worklist DECISIONS.md). */
const READ_ONLY: readonly TRole[] = [
  'ROLE_REFERRING_DOCTOR',
  'ROLE_AUDITOR',
  'ROLE_CUSTOMER',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_CENTER_BACKUP',
];
/** No study is visible to them (issue 4 §1 "Who sees what"). */
const SEES_NO_STUDY: readonly TRole[] = ['ROLE_VIEWER', 'ROLE_RADFLOW_SALES', 'ROLE_DASHBOARD_VIEWER'];
/** Roles that belong to the study's center. */
const AT_CENTER: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_OFFLINE_HYBRID',
];

let t: TestApp;
const browsers = new Map<TRole, TestClient>();
let reportStatusId = 0;

beforeAll(async () => {
  t = await createTestApp();
  // Centers may use the full viewer here, so the center roles are judged on their role alone.
  const w = await createTestWorld(t.db, { enableFullViewerForCenter: true });
  const mobile = uniqueMobile();
  const users = new Map<TRole, TTestUser>();
  for (const role of ROLES) {
    const { user, browser } = await signIn(t, {
      roles: [role],
      groupId: w.group.id,
      centerId: AT_CENTER.includes(role) ? w.center.id : null,
      mobileNumber: role === 'ROLE_CUSTOMER' ? mobile : null,
    });
    users.set(role, user);
    browsers.set(role, browser);
  }
  const idOf = (role: TRole) => users.get(role)?.id ?? 0;
  // The study is the doctor's, typed by the typist, audited, shared with the referring doctor, and
  // the customer's (their mobile is the patient's).
  await mapTestUser(t.db, idOf('ROLE_TYPIST'), 'ROLE_DOCTOR', idOf('ROLE_DOCTOR'));
  const { row } = await createTestStudy(t.db, {
    groupId: w.group.id,
    centerId: w.center.id,
    row: {
      status: 'LOCKED',
      assignedToUserId: idOf('ROLE_DOCTOR'),
      lockedByUserId: idOf('ROLE_DOCTOR'),
      auditorUserId: idOf('ROLE_AUDITOR'),
      referringDoctorUserId: idOf('ROLE_REFERRING_DOCTOR'),
      mobileNumber: mobile,
      lastUploadCompletedAt: new Date('2026-11-20T10:00:00Z'),
    },
  });
  reportStatusId = row.id;
});
afterAll(() => t.close());

const drawing = (uid: string) => ({
  annotationUid: uid,
  toolName: 'ArrowAnnotate',
  seriesInstanceUid: '1.2.3.1',
  sopInstanceUid: '1.2.3.1.1',
  frameNumber: 1,
  data: {
    handles: {
      points: [
        [1, 1, 0],
        [5, 5, 0],
      ],
    },
    text: 'here',
  },
});

describe('the viewer calls, role by role', () => {
  it.each(ROLES)('%s', async (role) => {
    const browser = browsers.get(role);
    if (!browser) throw new Error(`no browser for ${role}`);
    const base = `/api/viewer/${reportStatusId}`;
    const context = await browser.get(`${base}/context`);
    const save = await browser.request({
      method: 'PUT',
      url: `${base}/annotations/${role.toLowerCase()}`,
      payload: drawing(role.toLowerCase()),
    });

    if (SEES_NO_STUDY.includes(role)) {
      expect(context.statusCode).toBe(404);
      expect(save.statusCode).toBe(404);
      return;
    }
    expect(context.statusCode, context.body).toBe(200);
    expect((await browser.get(`${base}/annotations`)).statusCode).toBe(200);
    const mayDraw = !READ_ONLY.includes(role);
    expect(context.json<{ canAnnotate: boolean }>().canAnnotate).toBe(mayDraw);
    expect(save.statusCode, save.body).toBe(mayDraw ? 200 : 403);
  });
});
