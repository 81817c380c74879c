import { describe, expect, it } from 'vitest';
import { pageCsp } from './web.js';

const connectSrc = () =>
  pageCsp([])
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src')!
    .slice(1);

describe('the page CSP lets the /pacs-router screen reach the router on this computer (issue 27 §2)', () => {
  it('allows http://localhost and http://127.0.0.1 at any port: the router answers there', () => {
    expect(connectSrc()).toEqual(expect.arrayContaining(['http://localhost:*', 'http://127.0.0.1:*']));
  });

  it('still refuses plain http to any other host', () => {
    expect(connectSrc().filter((s) => s.startsWith('http:'))).toEqual([
      'http://localhost:*',
      'http://127.0.0.1:*',
    ]);
    expect(connectSrc()).not.toContain('http:');
  });
});
