/** The public API of @radflow/core: one barrel per domain folder (map in ../README.md). */
export * from './common/index.js';
export * from './identity/index.js';
export * from './people/index.js';
export * from './settings/index.js';
export * from './studies/index.js';
export * from './worklist/index.js';
export * from './reporting/index.js';
export * from './payments/index.js';
export * from './viewer/index.js';
export * from './forwarding/index.js';
export * from './jobs/index.js';
export * from './dicom/index.js';
export * from './display/index.js';
export * from './study-events/index.js';
export * from './chat/index.js';
export * from './presence/index.js';
export * from './notifications/index.js';
