import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the defaults of ARCHITECTURE §7', () => {
    const config = loadConfig({}, '/srv/radflow');
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: path.resolve('/srv/radflow', 'data'),
      DICOM_PORT: 11112,
      DICOM_AET: 'RADFLOW',
      SEED_DEMO: true,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      HOST: '0.0.0.0',
      DATABASE_POOL_SIZE: 10,
      API_MAX_IN_FLIGHT: 64,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.OUTBOX_MIRROR_FILE).toBeUndefined();
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it('reads the variables, treating empty as unset', () => {
    const config = loadConfig({
      PORT: '18080',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u:p@db:5432/radflow',
      SEED_DEMO: 'false',
      PUBLIC_URL: '',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '1',
      HOST: '127.0.0.1',
    });
    expect(config).toMatchObject({
      PORT: 18080,
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u:p@db:5432/radflow',
      SEED_DEMO: false,
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 1,
      HOST: '127.0.0.1',
    });
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it('names every bad variable in one clear message, without echoing URLs (they may hold passwords)', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        SEED_DEMO: 'maybe',
        DATABASE_URL: 'mysql://secret@x',
        DICOM_AET: 'A'.repeat(17),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('Invalid configuration');
    expect(message).toMatch(/PORT: must be a port number \(got "eighty"\)/);
    expect(message).toMatch(/SEED_DEMO: must be true or false/);
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(message).toMatch(/DICOM_AET: must be 1 to 16 printable ASCII characters/);
    expect(message).not.toContain('secret');
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it('reads the PostgreSQL pool size and refuses one that is not a positive whole number', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '24' }).DATABASE_POOL_SIZE).toBe(24);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE: must be at least 1/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '2.5' })).toThrow(
      /DATABASE_POOL_SIZE: must be a whole number of connections/,
    );
  });

  it('reads the browser upload limits (zip bombs), 8 GiB and 100:1 by default', () => {
    expect(loadConfig({})).toMatchObject({
      UPLOAD_MAX_INFLATED_BYTES: 8 * 1024 ** 3,
      UPLOAD_MAX_COMPRESSION_RATIO: 100,
    });
    expect(
      loadConfig({ UPLOAD_MAX_INFLATED_BYTES: '2147483648', UPLOAD_MAX_COMPRESSION_RATIO: '20' }),
    ).toMatchObject({ UPLOAD_MAX_INFLATED_BYTES: 2 ** 31, UPLOAD_MAX_COMPRESSION_RATIO: 20 });
    expect(() => loadConfig({ UPLOAD_MAX_INFLATED_BYTES: '10' })).toThrow(
      /UPLOAD_MAX_INFLATED_BYTES: must be at least 1048576/,
    );
    expect(() => loadConfig({ UPLOAD_MAX_COMPRESSION_RATIO: '0' })).toThrow(
      /UPLOAD_MAX_COMPRESSION_RATIO: must be at least 1/,
    );
  });

  it('reads the support contact, unset by default, and refuses one that is not a phone or e-mail', () => {
    const unset = loadConfig({ SUPPORT_PHONE: '', SUPPORT_EMAIL: '' });
    expect(unset.SUPPORT_PHONE).toBeUndefined();
    expect(unset.SUPPORT_EMAIL).toBeUndefined();
    expect(
      loadConfig({ SUPPORT_PHONE: ' +91 80 4000-1234 ', SUPPORT_EMAIL: 'help@radflow.example' }),
    ).toMatchObject({ SUPPORT_PHONE: '+91 80 4000-1234', SUPPORT_EMAIL: 'help@radflow.example' });
    expect(() => loadConfig({ SUPPORT_PHONE: 'call us' })).toThrow(/SUPPORT_PHONE: must be a phone number/);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'help' })).toThrow(/SUPPORT_EMAIL: must be an e-mail address/);
  });

  it('reads the extra allowed origins (none by default) and refuses anything but origins', () => {
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://a.example.org, http://10.0.0.5:8080' }).ALLOWED_ORIGINS,
    ).toEqual(['https://a.example.org', 'http://10.0.0.5:8080']);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'https://a.example.org/path' })).toThrow(
      /ALLOWED_ORIGINS: must be comma-separated origins/,
    );
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: must be between 1 and 65535/);
  });

  it('PAYMENT_PROVIDER=razorpay needs its three secrets at start, and names each one missing', () => {
    expect(loadConfig({}).razorpay).toBeNull();
    let error: unknown;
    try {
      loadConfig({ PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: '' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'RAZORPAY_KEY_SECRET: is required when PAYMENT_PROVIDER=razorpay',
      'RAZORPAY_WEBHOOK_SECRET: is required when PAYMENT_PROVIDER=razorpay',
    ]);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(
      /PAYMENT_PROVIDER: must be outbox or razorpay/,
    );
    const config = loadConfig({
      PAYMENT_PROVIDER: 'razorpay',
      RAZORPAY_KEY_ID: 'rzp_live_x',
      RAZORPAY_KEY_SECRET: 'ks',
      RAZORPAY_WEBHOOK_SECRET: 'ws',
    });
    expect(config.razorpay).toEqual({
      keyId: 'rzp_live_x',
      keySecret: 'ks',
      webhookSecret: 'ws',
      apiUrl: 'https://api.razorpay.com',
    });
  });
});
