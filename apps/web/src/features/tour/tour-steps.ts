/**
 * The feature tour (spec-core §2 "feature tour", issue 29 §7): a few steps, each pointing at a real
 * element of the screen by its `data-tour` attribute. A step whose element is not on the screen (a
 * role without a study list, a center without the router entry) is passed over.
 */
export type TTourTarget = 'menu' | 'worklist' | 'filters' | 'open-viewer' | 'open-report' | 'router' | 'help';

export interface TTourStep {
  target: TTourTarget;
  title: string;
  text: string;
}

export const TOUR_TEXTS = {
  region: 'Feature tour',
  offer:
    'New to Radflow? A short tour shows where things are: the study list, the viewer, the report editor, the router and the training videos.',
  start: 'Start the tour',
  resume: 'Continue the tour',
  skip: 'Skip the tour',
  back: 'Back',
  next: 'Next',
  done: 'Done',
  close: 'Close the tour',
  stepOf: (step: number, of: number) => `Step ${step} of ${of}`,
  coachNew: 'New',
  coachDismiss: 'Got it',
} as const;

export const FEATURE_TOUR_STEPS: readonly TTourStep[] = [
  {
    target: 'menu',
    title: 'Your menu',
    text: 'Every screen your role uses is here, with Create Study, Keyboard Shortcut and Support Videos below.',
  },
  {
    target: 'worklist',
    title: 'The study list',
    text: 'Your studies, newest first, in tabs by status. It refreshes by itself; row colours show urgent, locked and signed-off studies.',
  },
  {
    target: 'filters',
    title: 'Filters',
    text: 'Type under a column heading to filter, click a heading to sort. Filters stay while you switch tabs.',
  },
  {
    target: 'open-viewer',
    title: 'The viewer',
    text: 'Opens the images. In the viewer, Open in Weasis and Open in RadiAnt hand the study to those programs when your group allows them.',
  },
  {
    target: 'open-report',
    title: 'The report editor',
    text: 'Write the report beside the images, start from a template, and sign it off when done.',
  },
  {
    target: 'router',
    title: 'The Radflow router',
    text: "Your center's machines send images to the Radflow router, which uploads them here and resumes after a broken link.",
  },
  {
    target: 'help',
    title: 'Help at any time',
    text: 'Support Videos opens the questions people ask most, each with a short training video.',
  },
];

/** The attribute value selector of a step's element. */
export const tourTargetSelector = (target: TTourTarget) => `[data-tour="${target}"]`;

/** The element a step points at on the screen now, if it is there. */
export function tourStepTarget(index: number): HTMLElement | null {
  const step = FEATURE_TOUR_STEPS[index];
  return step ? document.querySelector<HTMLElement>(tourTargetSelector(step.target)) : null;
}

export const isTourStepPresent = (index: number): boolean => tourStepTarget(index) !== null;
