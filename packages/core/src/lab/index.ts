export * from './entities.js';
export * from './permissions.js';
export * from './money.js';
export * from './bill-money.js';
export * from './bill-schemas.js';
export * from './slot-calendar.js';
export * from './appointments.js';
