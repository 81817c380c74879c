export * from './entities.js';
export * from './permissions.js';
export * from './money.js';
export * from './tests.js';
export * from './test-attributes.js';
export * from './test-csv.js';
export * from './patients.js';
export * from './referring-doctors.js';
