export * from './rules.js';
export * from './schemas.js';
export * from './paths.js';
