/** What every domain builds on: business constants, the spec's shared texts, field patterns, the error body, paging. */
export * from './constants.js';
export * from './messages.js';
export * from './validation.js';
export * from './errors.js';
export * from './schemas.js';
export * from './csv.js';
export * from './shed-retry.js';
