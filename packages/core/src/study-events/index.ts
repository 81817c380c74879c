export * from './payloads.js';
export * from './study-events.js';
