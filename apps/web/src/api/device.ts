/**
 * The device identity every request carries (spec-core §7 "All requests carry headers for device id and
 * device name"). The id is generated once per browser profile and kept in localStorage so that a device
 * approved on the Audit Logins screen stays approved.
 */

import { DEVICE_ID_HEADER, DEVICE_NAME_HEADER } from '@radflow/core/device-headers';

export const DEVICE_ID_STORAGE_KEY = 'radflow.deviceId';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Used when storage is unavailable (private mode, blocked cookies): stable for this page's life. */
let memoryDeviceId: string | null = null;

/**
 * Forgets the in-memory id, as a new page load does. A page loads this module once, so only tests,
 * which open many pages in one module graph (src/test/setup.ts), call it.
 */
export function forgetMemoryDeviceId(): void {
  memoryDeviceId = null;
}

/** A v4 UUID; `crypto.randomUUID` only exists in secure contexts, so plain-http LAN hosts fall back. */
export function generateUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function getDeviceId(storage: Storage | undefined = safeLocalStorage()): string {
  try {
    const stored = storage?.getItem(DEVICE_ID_STORAGE_KEY);
    if (stored && UUID_PATTERN.test(stored)) return stored;
    const id = memoryDeviceId ?? generateUuid();
    storage?.setItem(DEVICE_ID_STORAGE_KEY, id);
    memoryDeviceId = id;
    return id;
  } catch {
    memoryDeviceId ??= generateUuid();
    return memoryDeviceId;
  }
}

/** A short readable name for the Audit Logins screen, e.g. 'Chrome on Linux'. ASCII only (HTTP header). */
export function describeDevice(userAgent: string): string {
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\/|CriOS\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : 'unknown OS';
  return `${browser} on ${os}`;
}

export function getDeviceName(): string {
  return describeDevice(typeof navigator === 'undefined' ? '' : navigator.userAgent);
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The headers every request carries (spec-core §7): JSON answers and the device id and name. */
export function deviceHeaders(): Record<string, string> {
  return {
    Accept: 'application/json',
    [DEVICE_ID_HEADER]: getDeviceId(),
    [DEVICE_NAME_HEADER]: getDeviceName(),
  };
}
