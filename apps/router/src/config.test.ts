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
  it('reads the wiring settings and refuses a malformed one, naming it', () => {
    const config = loadRouterConfig({
      ROUTER_PORT: '0',
      ROUTER_WEB_ORIGINS: 'https://radflow.example/, http://10.0.0.5:8080',
      ROUTER_FORWARD_DESTINATIONS: 'PACS@192.168.1.20:104',
      ROUTER_PRINTER: ' dicom:FILM@192.168.1.30:104 ',
    });
    expect(config).toMatchObject({
      ROUTER_PORT: 0,
      ROUTER_WEB_ORIGINS: ['https://radflow.example', 'http://10.0.0.5:8080'],
      ROUTER_FORWARD_DESTINATIONS: ['PACS@192.168.1.20:104'],
      ROUTER_PRINTER: 'dicom:FILM@192.168.1.30:104',
    });
    expect(loadRouterConfig({})).toMatchObject({
      ROUTER_WEB_ORIGINS: [],
      ROUTER_FORWARD_DESTINATIONS: [],
      ROUTER_PRINTER: '',
    });
    expect(() => loadRouterConfig({ ROUTER_WEB_ORIGINS: 'ftp://x' })).toThrow(/ROUTER_WEB_ORIGINS/);
    expect(() => loadRouterConfig({ ROUTER_FORWARD_DESTINATIONS: 'PACS@nowhere' })).toThrow(
      /ROUTER_FORWARD_DESTINATIONS/,
    );
    expect(() => loadRouterConfig({ ROUTER_PRINTER: 'laser' })).toThrow(/ROUTER_PRINTER.*laser/);
  });
});
