import { describe, expect, it } from 'vitest';
import { canDownloadRouter, compareRouterVersions, ZRouterReleaseManifest } from './release.js';

describe('router release versions', () => {
  it('orders by major, minor, patch as numbers', () => {
    expect(compareRouterVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareRouterVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareRouterVersions('1.2.3', '1.2.10')).toBeLessThan(0);
  });
  it('refuses anything but MAJOR.MINOR.PATCH', () => {
    expect(() => compareRouterVersions('1.2', '1.2.0')).toThrow(/Not a router version/);
    expect(() => compareRouterVersions('1.2.3-beta', '1.2.0')).toThrow(/Not a router version/);
  });
  it('a manifest names a plain file and a hex SHA-256', () => {
    const base = {
      product: 'radflow-router',
      version: '1.0.0',
      platform: 'linux',
      file: 'radflow-router-1.0.0-linux.zip',
      sha256: 'a'.repeat(64),
      size: 10,
      node: '>=20',
      builtAt: '2026-01-01T00:00:00.000Z',
    };
    expect(ZRouterReleaseManifest.safeParse(base).success).toBe(true);
    expect(ZRouterReleaseManifest.safeParse({ ...base, file: '../etc/passwd' }).success).toBe(false);
  });
});

describe('who may download the router', () => {
  it('the center only (spec-lab §6)', () => {
    expect(canDownloadRouter(['ROLE_CENTER'])).toBe(true);
    expect(canDownloadRouter(['ROLE_DOCTOR', 'ROLE_CENTER'])).toBe(true);
    for (const role of ['ROLE_ADMIN', 'ROLE_DOCTOR', 'ROLE_CENTER_CUSTOMER', 'ROLE_OFFLINE_HYBRID'] as const)
      expect(canDownloadRouter([role]), role).toBe(false);
  });
});
