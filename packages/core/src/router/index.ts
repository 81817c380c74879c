/** The center router's local API (spec-core §7 'Local router', §9 'Router'): contract, timings, address. */
export * from './local-api.js';
export * from './cloud-settings.js';
export * from './hybrid.js';
export * from './served-meta.js';
