import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react';
import { cleanup } from '@testing-library/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { vi } from 'vitest';
import { forgetMemoryDeviceId } from '../api/device';
import { closeSettingDialog } from '../features/settings/setting-dialog-store';
import { forgetWarmedStudies } from '../features/viewer/data-source/dicomweb-source';
import { forgetFirstImage } from '../features/viewer/first-image/first-image';
import { setDisplayTimeZone } from '../lib/format';

/**
 * The web tests' files share one jsdom page and one module graph per worker (vitest.config.ts
 * `isolate: false`), so after each test the page is put back as a new page load would find it:
 * what the app keeps for a page's life (module state, the window's hand-over keys) and what tests
 * set on the page's globals by hand. Tests' own stubs (vi.stubGlobal, vi.spyOn) are undone by
 * vitest itself (unstubGlobals, restoreMocks).
 *
 * This module is loaded once per worker, before any test has run: what it reads here is the page
 * as jsdom made it.
 */
const pristine = {
  createObjectURL: Object.getOwnPropertyDescriptor(URL, 'createObjectURL'),
  revokeObjectURL: Object.getOwnPropertyDescriptor(URL, 'revokeObjectURL'),
  mediaDevices: Object.getOwnPropertyDescriptor(navigator, 'mediaDevices'),
  matchMedia: Object.getOwnPropertyDescriptor(window, 'matchMedia'),
};

function restoreProperty(target: object, key: string, descriptor: PropertyDescriptor | undefined): void {
  if (descriptor) Object.defineProperty(target, key, descriptor);
  else Reflect.deleteProperty(target, key);
}

export function freshPage(): void {
  cleanup();
  vi.useRealTimers();

  // What the app keeps for the page's life.
  setDisplayTimeZone(null);
  closeSettingDialog();
  forgetFirstImage();
  forgetWarmedStudies();
  forgetMemoryDeviceId();
  // The early script's and the app's hand-over on the window (lib/early-responses.ts,
  // lib/early-preview-layer.ts, app/early/early-script.ts): all named __radflow….
  for (const key of Object.keys(window)) if (key.startsWith('__radflow')) Reflect.deleteProperty(window, key);

  // The page itself.
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  document.title = '';
  document.body.replaceChildren();
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);

  // Globals tests set by hand (test/render.tsx simulateWideScreen; object URLs and the microphone).
  restoreProperty(URL, 'createObjectURL', pristine.createObjectURL);
  restoreProperty(URL, 'revokeObjectURL', pristine.revokeObjectURL);
  restoreProperty(navigator, 'mediaDevices', pristine.mediaDevices);
  restoreProperty(window, 'matchMedia', pristine.matchMedia);
}

/** The emotion cache MUI's components write their styles to when no CacheProvider names one. */
function defaultEmotionCache(): EmotionCache | null {
  let cache: EmotionCache | null = null;
  const Read = () => {
    cache = __unsafe_useEmotionCache();
    return null;
  };
  renderToString(createElement(Read));
  return cache;
}

/**
 * After each file: the page's styles go, as a new page load starts without them. Emotion adds a
 * <style> per rule to the head and never removes one; shared by every file of a worker, the head
 * grew to thousands, and jsdom reads them all for each getComputedStyle (every getByRole), so the
 * last files of a run took several times as long as alone (measured: bench/results/2026-11-27-web-suite.json).
 */
export function freshStyles(): void {
  const cache = defaultEmotionCache();
  if (!cache) return;
  cache.sheet.flush();
  for (const key of Object.keys(cache.inserted)) Reflect.deleteProperty(cache.inserted, key);
}
