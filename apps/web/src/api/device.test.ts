import { describe, expect, it } from 'vitest';
import { DEVICE_ID_STORAGE_KEY, describeDevice, generateUuid, getDeviceId } from './device';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('device id', () => {
  it('is generated once and kept in localStorage', () => {
    const first = getDeviceId();
    expect(first).toMatch(UUID);
    expect(window.localStorage.getItem(DEVICE_ID_STORAGE_KEY)).toBe(first);
    expect(getDeviceId()).toBe(first);
  });

  it('reuses an id stored by an earlier visit', () => {
    const stored = '0f8fad5b-d9cb-469f-a165-70867728950e';
    window.localStorage.setItem(DEVICE_ID_STORAGE_KEY, stored);
    expect(getDeviceId()).toBe(stored);
  });

  it('replaces a stored value that is not a UUID', () => {
    window.localStorage.setItem(DEVICE_ID_STORAGE_KEY, 'garbage');
    const id = getDeviceId();
    expect(id).toMatch(UUID);
    expect(window.localStorage.getItem(DEVICE_ID_STORAGE_KEY)).toBe(id);
  });

  it('stays stable for the page when storage is blocked', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    const id = getDeviceId(blocked);
    expect(id).toMatch(UUID);
    expect(getDeviceId(blocked)).toBe(id);
  });

  it('makes v4 UUIDs without crypto.randomUUID (plain-http hosts)', () => {
    // randomUUID lives on Crypto.prototype: an own undefined property hides it, deleting it restores it.
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 50 }, generateUuid));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(UUID);
    } finally {
      Reflect.deleteProperty(crypto, 'randomUUID');
    }
  });
});

describe('describeDevice', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox on macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    ['curl/8.5.0', 'Browser on unknown OS'],
  ])('%s → %s', (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });
});
