export * from './entities.js';
export * from './permissions.js';
export * from './money.js';
export * from './patients.js';
export * from './referring-doctors.js';
