/**
 * The C-STORE response of the SCP (store-scp.ts): hands a received instance to `onInstance` and
 * turns what it says (or throws) into a status and an Error Comment.
 */
import { unlink } from 'node:fs/promises';
import { DimseStatus } from './constants.js';
import type { DimseLogger } from './library.js';
import type { Incoming } from './store-scp-sink.js';
import type { ReceivedInstance, StoreOutcome } from './store-scp-types.js';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Error Comment is LO: at most 64 characters, no backslash or control characters. */
export function toErrorComment(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\\\u0000-\u001f\u007f-\uffff]/g, ' ').slice(0, 64);
}

/** Who sent an instance, on which association: the part of ReceivedInstance the connection knows. */
export interface StoreSource {
  readonly callingAet: string;
  readonly calledAet: string;
  readonly remoteAddress: string;
  readonly associationId: string;
}

/**
 * The outcome of one C-STORE: no data set, a failed write (Out of Resources), or what `onInstance`
 * answers (an exception is a Processing failure with its message). The temp file is removed
 * afterwards, whatever `onInstance` left of it.
 */
export async function storeOutcome(
  incoming: Incoming | undefined,
  instance: { sopClassUid: string; sopInstanceUid: string },
  source: StoreSource,
  onInstance: (instance: ReceivedInstance) => Promise<StoreOutcome | void> | StoreOutcome | void,
  log: DimseLogger | undefined,
  /** Called once onInstance has answered, before the temp file is removed. */
  settled: () => void,
): Promise<StoreOutcome> {
  const { sopClassUid, sopInstanceUid } = instance;
  let outcome: StoreOutcome;
  if (!incoming) {
    outcome = { status: DimseStatus.ProcessingFailure, errorComment: 'No data set received' };
  } else if (incoming.error) {
    log?.error?.({ err: incoming.error, sopInstanceUid }, 'DIMSE C-STORE could not be written');
    outcome = {
      status: DimseStatus.OutOfResources,
      errorComment: `Cannot write: ${incoming.error.message}`,
    };
  } else {
    try {
      const common = {
        size: incoming.size,
        ...(incoming.sha256 ? { sha256: incoming.sha256 } : {}),
        ...(incoming.commandAt !== undefined && incoming.receivedAt !== undefined
          ? { commandAt: incoming.commandAt, receivedAt: incoming.receivedAt }
          : {}),
        callingAet: source.callingAet,
        calledAet: source.calledAet,
        remoteAddress: source.remoteAddress,
        sopClassUid,
        sopInstanceUid,
        transferSyntaxUid: incoming.transferSyntaxUid,
        associationId: source.associationId,
      };
      const result = await onInstance(
        incoming.inMemoryOnly && incoming.bytes
          ? { ...common, bytes: incoming.bytes }
          : { ...common, filePath: incoming.path, ...(incoming.bytes ? { bytes: incoming.bytes } : {}) },
      );
      outcome = result ?? { status: DimseStatus.Success };
    } catch (error) {
      log?.error?.({ err: error, sopInstanceUid, callingAet: source.callingAet }, 'DIMSE onInstance failed');
      outcome = { status: DimseStatus.ProcessingFailure, errorComment: errorMessage(error) };
    }
  }
  settled();
  if (incoming) {
    incoming.bytes = undefined;
    // Usually moved away by onInstance already: one unlink, not rm's lstat + unlink.
    if (!incoming.inMemoryOnly) await unlink(incoming.path).catch(() => undefined);
  }
  return outcome;
}
