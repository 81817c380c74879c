export * from './entities.js';
export * from './permissions.js';
