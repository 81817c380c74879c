export * from './entities.js';
export * from './permissions.js';
export * from './money.js';
export * from './bill-test-search.js';
