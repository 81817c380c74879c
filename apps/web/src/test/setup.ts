import { configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// findBy/waitFor give up after this long (the library's 1 s default failed first renders on a
// loaded machine); a passing test still returns as soon as what it waits for is there.
configure({ asyncUtilTimeout: 5_000 });

// The build tests run in node (@vitest-environment node): no page to clean. Elsewhere fresh-page.ts
// is loaded here, before the worker's first test, so that it reads the page as jsdom made it.
if (typeof window !== 'undefined') {
  const { freshPage, freshStyles } = await import('./fresh-page');
  afterEach(freshPage);
  afterAll(freshStyles);
}
