import { describe, expect, it } from 'vitest';
import { loadRouterConfig } from './config.js';

describe('router configuration', () => {
  it('fills defaults', () => {
    expect(loadRouterConfig({})).toEqual({
      ROUTER_PORT: 8090,
      ROUTER_SERVER_URL: 'http://127.0.0.1:8080',
      ROUTER_DATA_DIR: './router-data',
    });
  });
  it('names the bad variable', () => {
    expect(() => loadRouterConfig({ ROUTER_PORT: 'eighty' })).toThrow(/ROUTER_PORT/);
  });
});
