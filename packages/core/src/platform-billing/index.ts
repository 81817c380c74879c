export * from './rules.js';
export * from './money.js';
export * from './schemas.js';
