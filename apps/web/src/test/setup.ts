import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy/waitFor give up after this long (the library's 1 s default failed first renders on a
// loaded machine); a passing test still returns as soon as what it waits for is there.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  // The build tests run in node (@vitest-environment node): no page to clean.
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
