/** Forwarding studies to a PACS: the contracts, and (re-exported by schemas.ts) who may forward and the send badge. */
export * from './schemas.js';
