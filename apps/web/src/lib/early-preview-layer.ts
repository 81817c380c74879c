/**
 * The page's early preview (app/early/early-preview.ts): the first image, drawn by the early script
 * in the first viewport's place before the app has rendered, in a layer of its own above the page.
 * The app removes it once its own page shows the image there, or shows something else. Free of
 * imports: both bundles use it.
 */
export const EARLY_PREVIEW_ID = 'radflow-early-preview';

/** Set once the app no longer wants it: an early preview decoded later is not shown at all. */
const DONE = '__radflowEarlyPreviewDone';

/** Removes the early preview, if it is there, and keeps one from appearing later. */
export function dropEarlyPreview(): void {
  if (typeof document === 'undefined') return;
  (window as unknown as Record<string, boolean>)[DONE] = true;
  document.getElementById(EARLY_PREVIEW_ID)?.remove();
}

/** Whether the app has already taken over (or refused) the first image. */
export function earlyPreviewDone(): boolean {
  return (window as unknown as Record<string, boolean | undefined>)[DONE] === true;
}
