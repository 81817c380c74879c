import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import {
  dashboardAudienceOf,
  dashboardScopeOf,
  dashboardShowsPatients,
  dashboardSignOffLimit,
  openAgeBucketOf,
} from './dashboard.js';

const user = (roles: TRole[], centerId: number | null = null) => ({ id: 7, roles, groupId: 3, centerId });
const on = { enableDashboardViewer: true };
const off = { enableDashboardViewer: false };

describe('who a dashboard is about (issue 24 §3)', () => {
  it('the group for a dashboard viewer and a group admin, their center when attached to one', () => {
    expect(dashboardAudienceOf(user(['ROLE_DASHBOARD_VIEWER']), off)).toEqual({ kind: 'group' });
    expect(dashboardAudienceOf(user(['ROLE_GROUP']), off)).toEqual({ kind: 'group' });
    expect(dashboardAudienceOf(user(['ROLE_GROUP'], 5), off)).toEqual({ kind: 'center', centerId: 5 });
  });

  it('a center only with enableDashboardViewer; a lab supervisor always', () => {
    expect(dashboardAudienceOf(user(['ROLE_CENTER'], 5), on)).toEqual({ kind: 'center', centerId: 5 });
    expect(dashboardAudienceOf(user(['ROLE_CENTER'], 5), off)).toBeNull();
    expect(dashboardAudienceOf(user(['ROLE_LABS_SUPERVISOR'], 5), off)).toEqual({
      kind: 'center',
      centerId: 5,
    });
  });

  it("a doctor's own work; nobody else", () => {
    expect(dashboardAudienceOf(user(['ROLE_DOCTOR']), off)).toEqual({ kind: 'doctor', userId: 7 });
    for (const role of ['ROLE_TYPIST', 'ROLE_ASSIGNOR', 'ROLE_ADMIN', 'ROLE_RADFLOW_SALES'] as TRole[]) {
      expect(dashboardAudienceOf(user([role]), on), role).toBeNull();
    }
  });

  it('turns into a study scope of the one access rule', () => {
    expect(dashboardScopeOf({ kind: 'doctor', userId: 7 }, 3)).toEqual({
      groupId: 3,
      grants: [{ kind: 'assignedTo', userId: 7 }],
    });
    expect(dashboardScopeOf({ kind: 'center', centerId: 5 }, 3).grants).toEqual([
      { kind: 'center', centerId: 5 },
    ]);
  });
});

describe('the numbers around it', () => {
  it("measures against the group's limit, else the spec's timely sign-off", () => {
    expect(dashboardSignOffLimit({ signOffTimeLimit: 90 })).toBe(90);
    expect(dashboardSignOffLimit({ signOffTimeLimit: null })).toBe(1440);
  });

  it('buckets open ages below each bound', () => {
    expect([0, 59.9, 60, 239, 240, 1439, 1440, 4319, 4320, 99999].map(openAgeBucketOf)).toEqual([
      'UNDER_1H',
      'UNDER_1H',
      'H1_TO_4',
      'H1_TO_4',
      'H4_TO_24',
      'H4_TO_24',
      'D1_TO_3',
      'D1_TO_3',
      'OVER_3D',
      'OVER_3D',
    ]);
  });

  it('names patients to everyone but a dashboard viewer alone', () => {
    expect(dashboardShowsPatients(['ROLE_DASHBOARD_VIEWER'])).toBe(false);
    expect(dashboardShowsPatients(['ROLE_DASHBOARD_VIEWER', 'ROLE_GROUP'])).toBe(true);
    expect(dashboardShowsPatients(['ROLE_CENTER'])).toBe(true);
  });
});
