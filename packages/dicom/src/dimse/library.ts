// dcmjs-dimse is a CommonJS webpack bundle whose named exports Node's ESM loader cannot see, so it is
// taken whole as the default import (module.exports); its shipped declarations give the types. Not
// createRequire: a bundler cannot follow it, and the packaged router (one file, no node_modules)
// then failed to start (apps/router release/build.test.ts).
import dcmjsDimse from 'dcmjs-dimse';
import type * as DcmjsDimseModule from 'dcmjs-dimse';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from '../file-meta.js';

type DcmjsDimse = typeof DcmjsDimseModule;

export const dimse = dcmjsDimse as unknown as DcmjsDimse;

let configured = false;

/**
 * Once per process: dcmjs-dimse logs every PDU at info level (and builds those strings eagerly), which
 * costs more than the network itself; Radflow's Implementation Class UID goes into every association.
 */
export function configureDimse(): DcmjsDimse {
  if (!configured) {
    configured = true;
    dimse.log.setLevel('silent');
    dimse.Implementation.setImplementationClassUid(IMPLEMENTATION_CLASS_UID);
    dimse.Implementation.setImplementationVersion(IMPLEMENTATION_VERSION_NAME);
  }
  return dimse;
}

/** A pino-compatible logger (object first, then message); all methods optional. */
export interface DimseLogger {
  info?(data: object, message: string): void;
  warn?(data: object, message: string): void;
  error?(data: object, message: string): void;
}
