/**
 * The browser stories' Chromium flags, proven on this kind of machine (ARCHITECTURE §6); also read
 * by bench/browser-context.ts, which measures a story's fresh context with them.
 */
export const STORY_CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
