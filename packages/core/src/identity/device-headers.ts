/**
 * spec-core §7: every request carries the device id and device name headers. A module of its own,
 * free of imports, so the web page's early requests (built apart from the app) can name them too.
 */
export const DEVICE_ID_HEADER = 'X-Device-Id';
export const DEVICE_NAME_HEADER = 'X-Device-Name';
