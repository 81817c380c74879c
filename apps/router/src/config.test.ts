import { describe, expect, it } from 'vitest';
import { loadRouterConfig } from './config.js';

describe('router configuration', () => {
  it('fills defaults', () => {
    expect(loadRouterConfig({})).toMatchObject({
      ROUTER_PORT: 8090,
      ROUTER_SERVER_URL: 'http://127.0.0.1:8080',
      ROUTER_DATA_DIR: './router-data',
      ROUTER_AE_TITLE: 'RADFLOW_ROUTER',
      ROUTER_MODALITY_AE_TITLES: [],
      ROUTER_UPLOAD_HOURS: [],
      ROUTER_UPLOAD_KBITPS: 0,
      ROUTER_DISK_QUOTA_MB: 0,
    });
  });
  it('names the bad variable', () => {
    expect(() => loadRouterConfig({ ROUTER_PORT: 'eighty' })).toThrow(/ROUTER_PORT/);
    expect(() => loadRouterConfig({ ROUTER_UPLOAD_HOURS: '25:00-07:00' })).toThrow(
      /ROUTER_UPLOAD_HOURS.*25:00/,
    );
    expect(() => loadRouterConfig({ ROUTER_MODALITY_AE_TITLES: 'CT1:fast' })).toThrow(
      /ROUTER_MODALITY_AE_TITLES/,
    );
  });
  it('reads the modalities with their urgency and the upload hours', () => {
    const config = loadRouterConfig({
      ROUTER_MODALITY_AE_TITLES: 'CT1, ER_CT:urgent',
      ROUTER_UPLOAD_HOURS: '20:00-07:00',
    });
    expect(config.ROUTER_MODALITY_AE_TITLES).toEqual([
      { aeTitle: 'CT1', urgent: false },
      { aeTitle: 'ER_CT', urgent: true },
    ]);
    expect(config.ROUTER_UPLOAD_HOURS).toEqual([{ fromMinute: 1200, toMinute: 420 }]);
  });
});
