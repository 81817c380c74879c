/**
 * Where the viewer page puts its first viewport, as numbers: the page frame (ViewerFrame), the
 * viewport's border (ViewportFrame) and the page's early preview (app/early/early-preview.ts), which
 * draws the first image before React has rendered anything, all place it by these. One rule, so
 * the image does not move when the page's own frame appears around it. Free of imports: the early
 * script is bundled apart from the app.
 */

/**
 * The viewer frame's stacking level: above the shell's bar and drawer (MUI's drawer level, 1200,
 * + 50), below dialogs (1300) and snackbars; the early preview sits one above it.
 */
export const VIEWER_Z_INDEX = 1250;

/** The header row (title, toolbar, close), its bottom border included: one row, never wrapped. */
export const VIEWER_HEADER_HEIGHT = 48;

/** The series panel's width, its right border included. */
export const SERIES_PANEL_WIDTH = 240;

/** A viewport's border (the active one's is the primary colour). */
export const VIEWPORT_BORDER = 2;

export interface TRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The drawing area of the first viewport of a one-pane layout (the loading page's, and the
 * workspace's 1×1) in a window of this size: right of the series panel, below the header, inside
 * the viewport's border. Cornerstone's canvas and the preview's are this size.
 */
export function firstViewportArea(windowWidth: number, windowHeight: number): TRect {
  return {
    left: SERIES_PANEL_WIDTH + VIEWPORT_BORDER,
    top: VIEWER_HEADER_HEIGHT + VIEWPORT_BORDER,
    width: Math.max(0, windowWidth - SERIES_PANEL_WIDTH - 2 * VIEWPORT_BORDER),
    height: Math.max(0, windowHeight - VIEWER_HEADER_HEIGHT - 2 * VIEWPORT_BORDER),
  };
}
