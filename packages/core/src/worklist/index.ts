/**
 * The worklist rules (issue 4; spec-core §2 Study list screens and study table, §4 statuses, tabs,
 * actions and time exceeded, §5, §6): pure functions shared by the web and the server.
 */
export * from './statuses.js';
export * from './study-row.js';
export * from './tabs.js';
export * from './actions.js';
export * from './messages.js';
export * from './time-exceeded.js';
export * from './row-colour.js';
export * from './columns.js';
export * from './table.js';
export * from './study-details.js';
export * from './schemas.js';
export * from './study-actions-schemas.js';
