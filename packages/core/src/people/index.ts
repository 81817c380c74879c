export * from './rules.js';
export * from './schemas.js';
export * from './user-directory.js';
