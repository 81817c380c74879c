import { screen, within } from '@testing-library/react';
import type { TGettingStarted } from '@radflow/core';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { buildStudyPage } from '../../test/study-row';
import { useSession } from '../auth/session';
import { StudyListPage } from '../worklist/StudyListPage';
import { GettingStartedCard } from './GettingStartedCard';

const WAIT = { timeout: 10_000 };
const steps = (over: Partial<TGettingStarted> = {}): TGettingStarted => ({
  hasCenter: false,
  hasRadiologist: false,
  hasStudy: false,
  hasBillingDetails: false,
  ...over,
});

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

describe('getting-started card', () => {
  it('lists the steps, marks the done ones and links each to its screen', async () => {
    fakeApi({ 'GET /api/group/getting-started': { body: steps({ hasCenter: true }) } });
    renderScreen(<GettingStartedCard />);
    expect(await screen.findByText('1 of 4 done.', { exact: false })).toBeTruthy();
    const center = screen.getByTestId('step-hasCenter');
    expect(center.getAttribute('data-done')).toBe('true');
    expect(within(center).getByRole('link').getAttribute('href')).toBe('/manage-centers');
    const doctor = screen.getByTestId('step-hasRadiologist');
    expect(doctor.getAttribute('data-done')).toBe('false');
    expect(within(doctor).getByText('Invite a radiologist')).toBeTruthy();
    expect(within(doctor).getByRole('link').getAttribute('href')).toBe('/manage-users');
    expect(within(screen.getByTestId('step-hasBillingDetails')).getByRole('link').getAttribute('href')).toBe(
      '/setting-page',
    );
    expect(screen.getByTestId('step-hasStudy')).toBeTruthy();
  });

  it('is gone once the group has a study', async () => {
    const api = fakeApi({ 'GET /api/group/getting-started': { body: steps({ hasStudy: true }) } });
    const view = renderScreen(<GettingStartedCard />);
    await view.queryClient.refetchQueries();
    expect(api.calls('GET', '/api/group/getting-started').length).toBeGreaterThan(0);
    expect(screen.queryByText('Get started')).toBeNull();
  });

  it("shows on a new group admin's empty study list, and not on a doctor's", async () => {
    const owner = buildUser(['ROLE_GROUP', 'ROLE_ADMIN']);
    fakeApi({
      ...sessionHandlers(owner),
      'GET /api/group/getting-started': { body: steps() },
      'POST /api/dicom-web/studies/': { body: buildStudyPage([]) },
    });
    const first = renderScreen(
      <SignedIn>
        <StudyListPage route="/" />
      </SignedIn>,
    );
    expect(await screen.findByRole('heading', { name: 'Get started' }, WAIT)).toBeTruthy();
    first.unmount();

    const doctor = buildUser(['ROLE_DOCTOR']);
    const api = fakeApi({
      ...sessionHandlers(doctor),
      'GET /api/group/getting-started': { body: steps() },
      'POST /api/dicom-web/studies/': { body: buildStudyPage([]) },
    });
    renderScreen(
      <SignedIn>
        <StudyListPage route="/" />
      </SignedIn>,
    );
    expect(await screen.findByRole('heading', { name: 'Study list' }, WAIT)).toBeTruthy();
    expect(api.calls('GET', '/api/group/getting-started')).toHaveLength(0);
  });
});
