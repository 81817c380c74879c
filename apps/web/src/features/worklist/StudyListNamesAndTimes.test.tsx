import type { TRole, TUserPreferences } from '@radflow/core';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildReportingStudyRow as buildStudyRow } from '../../test/study-row';
import { setDisplayTimeZone } from '../../lib/format';
import { useSession } from '../auth/session';
import { buildDetail, buildReport, buildVersion } from '../report-editor/report-editor-test-kit';
import { ReportStatusLine } from '../report-editor/ReportStatusLine';
import { StudyHeader } from '../report-editor/StudyHeader';
import { StudyListPage } from './StudyListPage';

/*
 * Issue 21 §1: the list and the editor show a DICOM person name formatted (core formatPersonName),
 * never as stored, and times in the group's display time zone (core formatDisplayTime).
 */

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 5_000 };

// A session sets the group's zone for the page; the editor parts below are drawn without one.
afterEach(() => setDisplayTimeZone(null));

const RAW_PATIENT = 'Hong^Gildong=洪^吉洞=홍^길동';
const PATIENT = 'Gildong Hong (洪吉洞, 홍길동)';

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openCenterList(rows: ReturnType<typeof buildStudyRow>[], preferences?: TUserPreferences) {
  const roles: TRole[] = ['ROLE_CENTER'];
  fakeApi({
    ...sessionHandlers(buildUser(roles), preferences),
    'POST /api/report-status/': { body: buildStudyPage(rows) },
  });
  return renderScreen(
    <SignedIn>
      <StudyListPage route="/status" />
    </SignedIn>,
    { path: '/status', route: '/status' },
  );
}

describe('the study list', () => {
  it('shows patient and referring physician formatted, and times in +05:30', SLOW, async () => {
    const row = buildStudyRow({
      patientName: RAW_PATIENT,
      studyName: 'Rorden^Rorden_Prisma',
      referringPhysicianName: 'Kim^Minjun^^Dr.',
      lastUploadCompletedAt: '2026-01-05T20:04:09.000Z',
    });
    // The referring physician is not a default column of the center's list (issue 21 §6): turn it on.
    openCenterList(
      [row],
      buildPreferences((p) => {
        p.USER_TABLE_PREFERENCES.tableColumnSettings.centerReportList = [
          { colName: 'referral', visible: true, index: 0 },
        ];
      }),
    );
    const tr = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    expect(within(tr).getByText(PATIENT)).toBeTruthy();
    expect(within(tr).getByText('Dr. Minjun Kim')).toBeTruthy();
    expect(within(tr).getByText('Rorden Rorden_Prisma')).toBeTruthy();
    expect(tr.textContent).not.toContain('^');
    // The column shows the time alone; the cell's title says which zone.
    const uploaded = within(tr).getByText('2026-01-06 01:34:09');
    expect(uploaded.getAttribute('title')).toBe('2026-01-06 01:34:09 UTC+05:30');
  });

  it("follows the group's display time zone", SLOW, async () => {
    const row = buildStudyRow({ lastUploadCompletedAt: '2026-01-05T20:04:09.000Z' });
    openCenterList(
      [row],
      buildPreferences((p) => {
        p.ADMIN_PREFERENCES.displayTimeZone = 'Europe/Berlin';
      }),
    );
    const tr = await screen.findByTestId(`study-row-${row.id}`, {}, WAIT);
    expect(within(tr).getByText('2026-01-05 21:04:09')).toBeTruthy();
  });
});

describe('the report editor', () => {
  it('the study header shows the patient formatted, empty components never', () => {
    const { container } = render(
      <StudyHeader row={buildDetail({ patientName: RAW_PATIENT, studyName: 'Rorden^Rorden_Prisma' })} />,
    );
    const header = container.querySelector<HTMLElement>('dl[aria-label="Study"]')!;
    expect(within(header).getByText(PATIENT)).toBeTruthy();
    expect(within(header).getByText('Rorden Rorden_Prisma')).toBeTruthy();
    expect(header.textContent).not.toMatch(/[\^=]/);
  });

  it('the status line gives the last save and the sign-off in the display time zone, labelled', () => {
    const version = buildVersion({ savedAt: '2026-01-05T20:04:09.000Z', kind: 'SIGN_OFF' });
    const main = buildReport([version], {
      signature: { name: 'Dr Rao', imageAssetId: null, signedOffAt: '2026-01-05T20:04:09.000Z' },
    });
    render(<ReportStatusLine row={buildDetail({ status: 'SIGNED_OFF' })} main={main} autoSave="idle" />);
    const line = screen.getByTestId('report-status-line').textContent;
    expect(line).toContain('Last saved 2026-01-06 01:34:09 UTC+05:30');
    expect(line).toContain('Signed off by Dr Rao at 2026-01-06 01:34:09 UTC+05:30');
  });
});
