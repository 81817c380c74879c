import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCriticalResult } from '@radflow/core';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage, buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { eventDetail, eventLabel } from '../study-actions/timeline-text';
import { StudyListPage } from '../worklist/StudyListPage';

/** Issue 23 §5 in the study list: the center's banner with 'Acknowledge', and the row's mark. */

const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 8_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openResult(overrides: Partial<TCriticalResult> = {}): TCriticalResult {
  return {
    id: 31,
    entityId: 4242,
    patientName: 'ROE^ANNA',
    studyName: 'CT Abdomen',
    category: 'CRITICAL',
    finding: 'Free intraperitoneal air',
    state: 'RAISED',
    raisedAt: '2026-11-27T05:00:00.000Z',
    raisedBy: 'Dr Doc',
    escalationDueAt: '2026-11-27T05:30:00.000Z',
    escalatedAt: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    canAcknowledge: true,
    steps: [],
    ...overrides,
  };
}

describe('open critical results in the study list', () => {
  it(
    'shows the center its open result with Acknowledge, marks the row, and clears both once acknowledged',
    SLOW,
    async () => {
      const row = buildStudyRow({ id: 4242 });
      let open = [openResult()];
      const api = fakeApi({
        ...sessionHandlers(buildUser(['ROLE_CENTER'])),
        'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
        'POST /api/report-status/': { body: buildStudyPage([row]) },
        'GET /api/critical-results/open': () => ({ body: open }),
        'POST /api/critical-results/31/acknowledge': () => {
          open = [];
          return {
            body: openResult({
              state: 'ACKNOWLEDGED',
              acknowledgedAt: '2026-11-27T05:05:00.000Z',
              canAcknowledge: false,
            }),
          };
        },
      });
      renderScreen(
        <SignedIn>
          <StudyListPage route="/status" />
        </SignedIn>,
      );
      const banner = await screen.findByRole('region', { name: 'Open critical results' }, WAIT);
      expect(within(banner).getByText('Critical (immediate): Free intraperitoneal air')).toBeTruthy();
      expect(await screen.findByRole('img', { name: 'Open critical result' }, WAIT)).toBeTruthy();

      fireEvent.click(within(banner).getByRole('button', { name: 'Acknowledge critical result 31' }));
      await waitFor(() => expect(api.calls('POST', '/api/critical-results/31/acknowledge')).toHaveLength(1));
      await waitFor(
        () => expect(screen.queryByRole('region', { name: 'Open critical results' })).toBeNull(),
        WAIT,
      );
      expect(screen.queryByRole('img', { name: 'Open critical result' })).toBeNull();
    },
  );

  it('marks the row for the doctor, who has nothing to acknowledge (no banner)', SLOW, async () => {
    const row = buildStudyRow({ id: 4242 });
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DOCTOR'])),
      'POST /api/dicom-web/studies/': { body: buildStudyPage([row]) },
      'GET /api/critical-results/open': { body: [openResult({ canAcknowledge: false })] },
    });
    renderScreen(
      <SignedIn>
        <StudyListPage route="/" />
      </SignedIn>,
    );
    expect(await screen.findByTestId('critical-badge-4242', {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Open critical results' })).toBeNull();
  });
});

describe('the timeline words of a critical result', () => {
  const event = (eventType: string, detail: Record<string, unknown>) => ({ eventType, detail });
  it('names each step and its fact', () => {
    expect(eventLabel('CRITICAL_RESULT_RAISED')).toBe('Critical result raised');
    expect(
      eventDetail(
        event('CRITICAL_RESULT_RAISED', { criticalResultId: 1, category: 'URGENT', finding: 'Bleed' }),
      ),
    ).toBe('Urgent (same day): Bleed');
    expect(eventDetail(event('CRITICAL_RESULT_DELIVERED', { channel: 'EMAIL', to: 'c@x.org' }))).toBe(
      'E-mail to c@x.org',
    );
    expect(eventDetail(event('CRITICAL_RESULT_ACKNOWLEDGED', { by: 'c@x.org' }))).toBe('c@x.org');
    expect(eventDetail(event('CRITICAL_RESULT_ESCALATED', { to: 'a@x.org', afterMinutes: 30 }))).toBe(
      'a@x.org · after 30 minutes',
    );
  });
});
