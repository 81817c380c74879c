/**
 * Full-page navigation, in one object so tests can observe it (jsdom cannot navigate documents).
 */
export const browserLocation = {
  reload: (): void => window.location.reload(),
  assign: (url: string): void => window.location.assign(url),
};
