import type { Page } from 'playwright-core';

/** An element that moved after it was drawn (Chromium's Layout Instability API), as the page saw it. */
export interface TLayoutMove {
  /** The element's tag, classes and start of its text; null when it has left the page since. */
  element: string | null;
  /** Whether it sits in the page's `main` (the screen, not the top bar or the footer). */
  inMain: boolean;
  fromY: number;
  toY: number;
  atMs: number;
}

/**
 * What moved on the page since it loaded, by Chromium's `layout-shift` entries (the moves a user did
 * not cause: those within half a second of a click or a key are not reported). Read after two
 * frames, so a move of the last frame drawn is in.
 */
export function layoutMovesSoFar(page: Page): Promise<TLayoutMove[]> {
  return page.evaluate(
    () =>
      new Promise<TLayoutMove[]>((done) => {
        const moves: TLayoutMove[] = [];
        type TShift = PerformanceEntry & {
          sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
        };
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as TShift[]) {
            for (const source of entry.sources) {
              const element = source.node instanceof Element ? source.node : null;
              moves.push({
                element: element
                  ? `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').slice(0, 40)}"`
                  : null,
                inMain: element !== null && element.closest('main') !== null,
                fromY: Math.round(source.previousRect.y),
                toY: Math.round(source.currentRect.y),
                atMs: Math.round(entry.startTime),
              });
            }
          }
        });
        observer.observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            observer.disconnect();
            done(moves);
          }),
        );
      }),
  );
}
