import { defaultPreferences, menuForUser } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { buildPreferences } from '../../test/builders';
import { buildMenuContext } from './menu-context';

const labels = (ctx: ReturnType<typeof buildMenuContext>) => menuForUser(ctx).map((i) => i.label);

describe('buildMenuContext', () => {
  it('sorts roles reverse-alphabetically and reads no switch by default', () => {
    const ctx = buildMenuContext(
      { roles: ['ROLE_ADMIN', 'ROLE_DOCTOR'], hybridModeOn: false, answersSupport: false },
      defaultPreferences(),
      { teleUser: false },
    );
    expect(ctx.roles).toEqual(['ROLE_DOCTOR', 'ROLE_ADMIN']);
    expect(ctx.enableReportSearch).toBe(false);
    expect(labels(ctx)).not.toContain('Report Search');
  });

  it('replaces the roles with ROLE_OFFLINE_HYBRID in hybrid mode', () => {
    const ctx = buildMenuContext(
      { roles: ['ROLE_CENTER'], hybridModeOn: true, answersSupport: false },
      defaultPreferences(),
      {
        teleUser: false,
      },
    );
    expect(ctx.roles).toEqual(['ROLE_OFFLINE_HYBRID']);
    expect(menuForUser(ctx).map((i) => i.path)).toEqual(['/hybrid-study-list']);
  });

  it('turns group switches into menu items', () => {
    const prefs = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.enableReportSearch = true;
      p.USER_ADMIN_VISIBLE_PREFERENCES.useInBrowserPythonApp = true;
      p.USER_ADMIN_VISIBLE_PREFERENCES.enableDashboardViewer = true;
      p.USER_ADMIN_VISIBLE_PREFERENCES.enableElasticReportSummary = true;
    });
    const ctx = buildMenuContext(
      { roles: ['ROLE_CENTER'], hybridModeOn: false, answersSupport: false },
      prefs,
      { teleUser: false },
    );
    expect(labels(ctx)).toEqual(
      expect.arrayContaining([
        'Report Search',
        'PACS router',
        'View Detailed Dashboard',
        'Advanced Search Report Summary',
      ]),
    );
  });

  it('hides the summary page with hideSummaryPage and the setting page for tele users', () => {
    const prefs = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.hideSummaryPage = true;
    });
    const ctx = buildMenuContext(
      { roles: ['ROLE_CENTER'], hybridModeOn: false, answersSupport: false },
      prefs,
      { teleUser: true },
    );
    expect(ctx.teleUser).toBe(true);
    expect(ctx.hideSummaryPage).toBe(true);
    // Left: the report list, and the center's tele-radiology invoices (issue 26, ours).
    expect(labels(ctx)).toEqual(['Manage report', 'Invoices']);
  });

  it('hides Manage patient for center when WhatsApp messages are off', () => {
    const prefs = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.doNotSendWhatsappMessage = true;
    });
    const on = buildMenuContext(
      { roles: ['ROLE_CENTER_CUSTOMER'], hybridModeOn: false, answersSupport: false },
      defaultPreferences(),
      {
        teleUser: false,
      },
    );
    const off = buildMenuContext(
      { roles: ['ROLE_CENTER_CUSTOMER'], hybridModeOn: false, answersSupport: false },
      prefs,
      {
        teleUser: false,
      },
    );
    expect(labels(on)).toContain('Manage patient for center');
    expect(labels(off)).not.toContain('Manage patient for center');
  });

  it('gives the platform support its Support inbox (GET /api/user answersSupport), nobody else', () => {
    const admin = (answersSupport: boolean) =>
      buildMenuContext({ roles: ['ROLE_GROUP'], hybridModeOn: false, answersSupport }, defaultPreferences(), {
        teleUser: false,
      });
    expect(labels(admin(true))).toContain('Support inbox');
    expect(labels(admin(false))).not.toContain('Support inbox');
  });
});
