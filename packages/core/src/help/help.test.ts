import { describe, expect, it } from 'vitest';
import { defaultMenuContext } from '../identity/menus.js';
import { ROLES } from '../identity/roles.js';
import { decideRoute } from '../identity/routes.js';
import { PREFERENCE_SECTIONS } from '../settings/preferences.js';
import { FAQ_PATH } from './paths.js';
import { TRAINING_VIDEOS, ZTrainingVideoParams, isTrainingVideoId } from './training-videos.js';
import {
  COACH_MARKS,
  FEATURE_TOUR_ID,
  coachMarkId,
  isTutorialDue,
  resumeStepOf,
  withTutorialCompleted,
  withTutorialStep,
} from './tutorials.js';

const fresh = () => PREFERENCE_SECTIONS.TUTORIAL_STATUS.parse({});

describe('TUTORIAL_STATUS (spec-core §3, spec-lab §4 "runs once until marked shown")', () => {
  it('a new user is due the tour and every coach mark, from the first step', () => {
    const status = fresh();
    expect(status).toEqual({ completed: [], inProgress: {} });
    expect(isTutorialDue(status, FEATURE_TOUR_ID)).toBe(true);
    for (const mark of COACH_MARKS) expect(isTutorialDue(status, coachMarkId(mark))).toBe(true);
    expect(resumeStepOf(status, FEATURE_TOUR_ID)).toBe(0);
  });

  it('a stored section from before the step existed still loads (completed only)', () => {
    expect(PREFERENCE_SECTIONS.TUTORIAL_STATUS.parse({ completed: ['worklist'] })).toEqual({
      completed: ['worklist'],
      inProgress: {},
    });
  });

  it('resumes at the step it stopped at, and completing forgets the step once', () => {
    const midway = withTutorialStep(fresh(), FEATURE_TOUR_ID, 3);
    expect(resumeStepOf(midway, FEATURE_TOUR_ID)).toBe(3);
    expect(isTutorialDue(midway, FEATURE_TOUR_ID)).toBe(true);
    const done = withTutorialCompleted(midway, FEATURE_TOUR_ID);
    expect(done).toEqual({ completed: [FEATURE_TOUR_ID], inProgress: {} });
    expect(isTutorialDue(done, FEATURE_TOUR_ID)).toBe(false);
    expect(withTutorialCompleted(done, FEATURE_TOUR_ID)).toEqual(done);
  });

  it('completing a coach mark keeps the tour where it was', () => {
    const midway = withTutorialStep(fresh(), FEATURE_TOUR_ID, 2);
    const seen = withTutorialCompleted(midway, coachMarkId('weasis'));
    expect(seen).toEqual({ completed: ['coach-weasis'], inProgress: { [FEATURE_TOUR_ID]: 2 } });
  });
});

describe('the FAQ and its 12 training videos (spec-core §2)', () => {
  it('has 12 videos with unique ids and titles', () => {
    expect(TRAINING_VIDEOS).toHaveLength(12);
    expect(new Set(TRAINING_VIDEOS.map((v) => v.id)).size).toBe(12);
    expect(new Set(TRAINING_VIDEOS.map((v) => v.title)).size).toBe(12);
  });

  it('names a recording only by a known id and .webm (no path can be smuggled in)', () => {
    expect(isTrainingVideoId('viewer')).toBe(true);
    expect(ZTrainingVideoParams.safeParse({ file: 'viewer.webm' }).success).toBe(true);
    for (const file of ['viewer', 'nope.webm', '../secrets.webm', 'viewer.webm/..', 'VIEWER.webm']) {
      expect(ZTrainingVideoParams.safeParse({ file }).success).toBe(false);
    }
  });

  it.each(ROLES)('%s signed in may open the FAQ', (role) => {
    const user = { email: 'x@y.in', ctx: defaultMenuContext([role]) };
    expect(decideRoute({ pathname: FAQ_PATH, user })).toEqual({ action: 'allow' });
  });

  it('signed out, the FAQ sends to the login page', () => {
    expect(decideRoute({ pathname: FAQ_PATH, user: null })).toEqual({
      action: 'redirect',
      to: '/login-page',
    });
  });
});
