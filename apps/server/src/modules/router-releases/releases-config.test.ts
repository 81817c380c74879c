import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';

describe('ROUTER_RELEASES_DIR', () => {
  it('is unset by default (no router downloads) and empty counts as unset', () => {
    expect(loadConfig({}, '/srv/radflow').ROUTER_RELEASES_DIR).toBeUndefined();
    expect(loadConfig({ ROUTER_RELEASES_DIR: '' }, '/srv/radflow').ROUTER_RELEASES_DIR).toBeUndefined();
  });
  it('resolves a relative directory from the working directory', () => {
    expect(loadConfig({ ROUTER_RELEASES_DIR: 'router-releases' }, '/srv/radflow').ROUTER_RELEASES_DIR).toBe(
      path.resolve('/srv/radflow', 'router-releases'),
    );
  });
});
