/**
 * The viewer rules (issue 5; spec-core §2 Viewer entry, §5, §6): pure functions shared by the web and
 * the server.
 */
export * from './upload-state.js';
export * from './entry.js';
export * from './annotate.js';
export * from './weasis.js';
export * from './transfer-syntax.js';
export * from './display-order.js';
export * from './external-viewers.js';
export * from './viewer-link.js';
export * from './schemas.js';
export * from './rendered-query.js';
