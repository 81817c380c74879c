import type { TPlaceholderPath } from './placeholder-paths';

/**
 * Screens of spec-core §2 and spec-lab §2 that later issues build. Each is titled with its menu label
 * and says which capability comes later, so every route resolves for the roles that may open it. The
 * paths are in placeholder-paths.ts (the routes need only those); this loads with the page.
 */
export interface TPlaceholderScreen {
  title: string;
  /** The capability the screen will hold. */
  capability: string;
  /** Which issue brings it. */
  arrivesWith: string;
  /** What the screen will do, in one sentence. */
  summary: string;
}

const ROUTER = 'a later issue (local router)';

/** Every placeholder path, and only those (the type holds the two lists together). */
export const PLACEHOLDER_SCREENS: Readonly<Record<TPlaceholderPath, TPlaceholderScreen>> = {
  '/pacs-router': {
    title: 'PACS router',
    capability: 'PACS router',
    arrivesWith: ROUTER,
    summary: 'The local router’s upload queue, pending cases and forwarding.',
  },
};
