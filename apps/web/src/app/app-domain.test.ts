import { describe, expect, it } from 'vitest';
import { appDomainRedirect } from './app-domain';

const here = { host: 'radflow.local:8080', protocol: 'http:' };

describe('appDomainRedirect', () => {
  it('stays when no app domain is set or it is this host', () => {
    expect(appDomainRedirect(null, here)).toBeNull();
    expect(appDomainRedirect('  ', here)).toBeNull();
    expect(appDomainRedirect('RADFLOW.local:8080', here)).toBeNull();
    expect(appDomainRedirect('http://radflow.local:8080/', here)).toBeNull();
  });

  it("goes to the other host's login page, keeping this protocol for a bare host", () => {
    expect(appDomainRedirect('reports.example.org', here)).toBe('http://reports.example.org/login-page');
    expect(appDomainRedirect('https://reports.example.org', here)).toBe(
      'https://reports.example.org/login-page',
    );
  });

  it('ignores a value that is not a host', () => {
    expect(appDomainRedirect('not a host', here)).toBeNull();
  });
});
