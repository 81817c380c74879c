/**
 * The browser stories' Chromium flags, proven on this kind of machine (ARCHITECTURE §6); also read
 * by bench/browser-context.ts (a story's fresh context) and bench/viewer-open.ts (the viewer).
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
