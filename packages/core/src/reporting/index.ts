export * from './messages.js';
export * from './rules.js';
export * from './schemas.js';
export * from './templates.js';
