import { TRAINING_VIDEOS } from '@radflow/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '../../app/routes';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes, simulateWideScreen } from '../../test/render';
import { FAQ_TEXTS } from './FaqPage';

/*
 * issue 29 §7 (spec-core §2 "a full-screen FAQ with 12 training videos"): Support Videos in the
 * drawer opens it; every answer shows, a video plays where the server has its recording.
 */

// A ceiling, not a wait: the shell's first render takes seconds on a loaded machine.
const SLOW = { timeout: 45_000 };
beforeEach(() => simulateWideScreen());

describe('the FAQ', () => {
  it('opens full screen from Support Videos, with 12 answers and the recorded videos', SLOW, async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_ADMIN_BILLER'])),
      'GET /api/training-videos': {
        body: { videos: [{ id: 'viewer', bytes: 1000, recordedAt: '2026-11-27T10:00:00Z' }] },
      },
    });
    renderRoutes(APP_ROUTES, '/user/get-route');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' }, SLOW);
    fireEvent.click(within(menu).getByRole('button', { name: 'Support Videos' }));

    const faq = await screen.findByRole('dialog', { name: FAQ_TEXTS.title }, SLOW);
    expect(faq.className).toContain('MuiDialog-paperFullScreen');
    const answers = within(faq).getAllByRole('region');
    expect(answers.map((a) => within(a).getByRole('heading').textContent)).toEqual(
      TRAINING_VIDEOS.map((v) => v.title),
    );
    const viewer = within(faq).getByRole('region', { name: 'Opening a study in the viewer' });
    const video = await within(viewer).findByLabelText('Opening a study in the viewer (training video)');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('src')).toBe('/api/training-videos/viewer.webm');
    expect(within(faq).getAllByText(FAQ_TEXTS.notRecorded)).toHaveLength(11);

    fireEvent.click(within(faq).getByRole('button', { name: FAQ_TEXTS.close }));
    expect(await screen.findByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: FAQ_TEXTS.title })).toBeNull();
  });
});
