/**
 * @radflow/dicom/dimse — DICOM networking over dcmjs-dimse with no-delay sockets (ARCHITECTURE §4):
 * a C-STORE/C-ECHO SCP that stores instances intact (and answers C-FIND through a handler), C-ECHO and C-STORE SCU, and storescu profiles.
 * Kept out of the main entry point, which is pure functions over bytes.
 */
export * from './constants.js';
export * from './errors.js';
export type { DimseLogger } from './library.js';
export {
  startStoreScp,
  type AssociationDecision,
  type ReceivedInstance,
  type StoreOutcome,
  type StoreScp,
  type StoreScpOptions,
} from './store-scp.js';
export {
  cEcho,
  cStore,
  readStoreFileHeader,
  type CEchoResult,
  type CStoreInstanceResult,
  type CStoreInstanceStatus,
  type CStoreOptions,
  type CStoreOutcome,
  type CStoreProgress,
  type DimsePeer,
  type StoreFileHeader,
} from './scu.js';
export {
  FindStatus,
  QUERY_RETRIEVE_FIND,
  type FindAnswer,
  type FindQuery,
  type FindScpOptions,
} from './find-scp.js';
