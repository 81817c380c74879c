import { afterEach, describe, expect, it, vi } from 'vitest';

async function themeWith(reduceMotion: boolean) {
  vi.resetModules();
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: reduceMotion && query === '(prefers-reduced-motion: reduce)',
        media: query,
      }) as MediaQueryList,
  );
  return (await import('./theme')).theme;
}

describe('the theme and the system motion setting', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('animates dialogs, menus and ripples by default', async () => {
    const theme = await themeWith(false);
    expect(theme.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(theme.transitions.create('opacity')).not.toBe('none');
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it('draws without animation when the system asks to reduce motion (WCAG 2.3.3)', async () => {
    const theme = await themeWith(true);
    expect(theme.transitions.duration.enteringScreen).toBe(0);
    expect(theme.transitions.duration.leavingScreen).toBe(0);
    expect(theme.transitions.getAutoHeightDuration(400)).toBe(0);
    expect(theme.transitions.create('opacity')).toBe('none');
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    // The rest of the theme is the same.
    expect(theme.palette.mode).toBe('dark');
    expect(theme.components?.MuiButton?.defaultProps?.size).toBe('small');
  });
});
