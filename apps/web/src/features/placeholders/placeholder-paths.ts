import type { KNOWN_ROUTES } from '@radflow/core';

/**
 * The paths of the screens later issues build (placeholder-screens.ts says what each will be): the
 * app's routes need only these, so the screens' texts load with the placeholder page, not the shell.
 * Each is one of core's KNOWN_ROUTES (the type says so).
 */
export const PLACEHOLDER_PATHS = [
  '/manage-tele-pricing',
  '/manage-tele-invoice',
  '/signup',
  '/admin-page/billing',
  '/admin-page/billing-dashboard',
  '/admin-page/sales-dashboard',
] as const satisfies ReadonlyArray<(typeof KNOWN_ROUTES)[number]>;

export type TPlaceholderPath = (typeof PLACEHOLDER_PATHS)[number];
