export * from './messages.js';
export * from './sections.js';
export * from './setting-entries.js';
export * from './lab-slots.js';
export * from './asset-rules.js';
export * from './group-explanations.js';
export * from './settings-api.js';
