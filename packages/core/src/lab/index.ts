export * from './entities.js';
export * from './permissions.js';
export * from './money.js';
export * from './documents.js';
