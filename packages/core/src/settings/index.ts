export * from './messages.js';
export * from './sections.js';
export * from './setting-entries.js';
export * from './lab-slots.js';
