import { z } from 'zod';

/**
 * What a user has seen of the feature tour and the coach marks (spec-core §3 TUTORIAL_STATUS,
 * spec-core §2 "feature tour", spec-lab §4 "The feature tour runs once until marked shown"). Kept
 * in the user's TUTORIAL_STATUS section on the server, so it follows the user to any browser; the
 * spec's local coach-mark flags (router, Weasis, RadiAnt, spec-core §3 "Local flags") are kept there
 * too, for the same reason (issue 29 §7).
 */
export const FEATURE_TOUR_ID = 'feature-tour';

/** The coach marks: a one-time hint beside an entry a new user may not know (spec-core §3). */
export const COACH_MARKS = ['router', 'weasis', 'radiant'] as const;
export type TCoachMark = (typeof COACH_MARKS)[number];

/** The id a coach mark is recorded under in TUTORIAL_STATUS.completed. */
export const coachMarkId = (mark: TCoachMark): string => `coach-${mark}`;

export const ZTutorialStatus = z.object({
  /** Tours and coach marks shown to the end, skipped or dismissed: never offered again. */
  completed: z.array(z.string().max(64)).max(100).default([]),
  /**
   * Ours (issue 29 §7 "resumes"): the step a started tour stopped at, per tour id; the tour
   * continues there, on any browser.
   */
  inProgress: z.record(z.string().max(64), z.number().int().min(0).max(100)).default({}),
});
export type TTutorialStatus = z.infer<typeof ZTutorialStatus>;

/** Whether a tour or coach mark is still to be shown to this user. */
export function isTutorialDue(status: TTutorialStatus, id: string): boolean {
  return !status.completed.includes(id);
}

/** The step a tour starts at: where it stopped, else the first. */
export function resumeStepOf(status: TTutorialStatus, id: string): number {
  return status.inProgress[id] ?? 0;
}

/** The status once this tour (or coach mark) is done: completed, its progress forgotten. */
export function withTutorialCompleted(status: TTutorialStatus, id: string): TTutorialStatus {
  const inProgress = Object.fromEntries(Object.entries(status.inProgress).filter(([key]) => key !== id));
  const completed = status.completed.includes(id) ? status.completed : [...status.completed, id];
  return { completed, inProgress };
}

/** The status with the step a tour is at (for resuming). */
export function withTutorialStep(status: TTutorialStatus, id: string, step: number): TTutorialStatus {
  return { completed: status.completed, inProgress: { ...status.inProgress, [id]: step } };
}
