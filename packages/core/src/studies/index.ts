/** Which studies a user sees, who brings studies in (Create Study, upload), and a study's files, tags and sharing. */
export * from './access.js';
export * from './upload-permissions.js';
export * from './upload-schemas.js';
export * from './study-files.js';
