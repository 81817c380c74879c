export * from './study-payments.js';
export * from './schemas.js';
