/** Forwarding a study from the router to a PACS on the center's network (issue 27 §3). See FORWARD.md. */
export * from './destination.js';
export * from './study-source.js';
export * from './cloud-source.js';
export * from './send-store.js';
export * from './send-jobs.js';
export * from './local-study-source.js';
