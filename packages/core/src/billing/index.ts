export * from './vocabulary.js';
export * from './money.js';
export * from './price-in-force.js';
export * from './invoice-money.js';
export * from './permissions.js';
export * from './schemas.js';
export * from './paths.js';
