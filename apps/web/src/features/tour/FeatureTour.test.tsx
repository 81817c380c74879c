import { FEATURE_TOUR_ID, type TTutorialStatus } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../app/routes';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../../test/render';
import { FEATURE_TOUR_STEPS, TOUR_TEXTS as T } from './tour-steps';

/*
 * issue 29 §7 (spec-core §2 feature tour, spec-lab §4 "runs once until marked shown"): offered to a
 * user who has not finished or skipped it, resumable, recorded in TUTORIAL_STATUS on the server.
 */

// A ceiling, not a wait: the shell's first render takes seconds on a loaded machine.
const SLOW = { timeout: 45_000 };
beforeEach(() => simulateWideScreen());

function openAs(status: Partial<TTutorialStatus>) {
  const saved: TTutorialStatus[] = [];
  const api = fakeApi({
    ...sessionHandlers(
      buildUser(['ROLE_ADMIN_BILLER']),
      buildPreferences((p) => {
        p.TUTORIAL_STATUS = { completed: [], inProgress: {}, ...status };
      }),
    ),
    'POST /api/setting/update/TUTORIAL_STATUS': (r: TRecordedRequest) => {
      const body = r.json<TTutorialStatus>();
      saved.push(body);
      return { body };
    },
  });
  renderRoutes(APP_ROUTES, '/user/get-route');
  return { api, saved };
}

const stepTitle = (target: string) => FEATURE_TOUR_STEPS.find((s) => s.target === target)!.title;

describe('the feature tour', () => {
  it('a new user is offered it; skipping records it shown and the offer goes', SLOW, async () => {
    const { saved } = openAs({});
    const offer = await screen.findByRole('region', { name: T.region }, SLOW);
    fireEvent.click(within(offer).getByRole('button', { name: T.skip }));
    await waitFor(() => expect(screen.queryByRole('region', { name: T.region })).toBeNull());
    expect(saved).toEqual([{ completed: [FEATURE_TOUR_ID], inProgress: {} }]);
  });

  it(
    'walks the steps on the screen, saves each step, and Escape leaves it to resume there',
    SLOW,
    async () => {
      const { saved } = openAs({});
      const offer = await screen.findByRole('region', { name: T.region }, SLOW);
      fireEvent.click(within(offer).getByRole('button', { name: T.start }));

      // The billing screen has the menu and the help entry, not the study list: those steps are passed over.
      const card = await screen.findByRole('dialog', { name: stepTitle('menu') });
      expect(card.getAttribute('aria-modal')).toBe('false');
      expect(document.activeElement).toBe(card);
      expect(within(card).getByText(T.stepOf(1, 2))).toBeTruthy();
      expect(within(card).queryByRole('button', { name: T.back })).toBeNull();

      fireEvent.click(within(card).getByRole('button', { name: T.next }));
      const help = await screen.findByRole('dialog', { name: stepTitle('help') });
      expect(within(help).getByText(T.stepOf(2, 2))).toBeTruthy();
      const helpIndex = FEATURE_TOUR_STEPS.findIndex((s) => s.target === 'help');
      expect(saved).toEqual([{ completed: [], inProgress: { [FEATURE_TOUR_ID]: helpIndex } }]);

      fireEvent.keyDown(help, { key: 'Escape' });
      const resume = await screen.findByRole('button', { name: T.resume });
      expect(screen.queryByRole('dialog', { name: stepTitle('help') })).toBeNull();
      expect(document.activeElement).toBe(resume);
      fireEvent.click(resume);
      const again = await screen.findByRole('dialog', { name: stepTitle('help') });
      fireEvent.click(within(again).getByRole('button', { name: T.done }));
      await waitFor(() => expect(screen.queryByRole('region', { name: T.region })).toBeNull());
      expect(saved.at(-1)).toEqual({ completed: [FEATURE_TOUR_ID], inProgress: {} });
    },
  );

  it('resumes where another browser left it', SLOW, async () => {
    const helpIndex = FEATURE_TOUR_STEPS.findIndex((s) => s.target === 'help');
    openAs({ inProgress: { [FEATURE_TOUR_ID]: helpIndex } });
    fireEvent.click(await screen.findByRole('button', { name: T.resume }, SLOW));
    const card = await screen.findByRole('dialog', { name: stepTitle('help') });
    fireEvent.click(within(card).getByRole('button', { name: T.back }));
    expect(await screen.findByRole('dialog', { name: stepTitle('menu') })).toBeTruthy();
  });

  it('is not offered once shown', SLOW, async () => {
    openAs({ completed: [FEATURE_TOUR_ID] });
    await screen.findByRole('navigation', { name: 'Main menu' }, SLOW);
    expect(screen.queryByRole('region', { name: T.region })).toBeNull();
  });
});
