import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use.js';

const require = createRequire(import.meta.url);

describe('onFirstUse', () => {
  it('loads the library at the first call, not before, and gives the same module after', () => {
    // Its require cache entry tells when it was loaded (cleared first: another file may have).
    const path = require.resolve('sanitize-html');
    delete require.cache[path];
    const library = onFirstUse<(html: string) => string>('sanitize-html');
    expect(require.cache[path]).toBeUndefined();
    const first = library();
    expect(require.cache[path]).toBeDefined();
    expect(first('<b>x</b><script>y</script>')).toBe('<b>x</b>');
    expect(library()).toBe(first);
  });

  it('names a library that is not installed when it is first asked for', () => {
    const missing = onFirstUse('radflow-no-such-package');
    expect(() => missing()).toThrow(/radflow-no-such-package/);
  });
});
