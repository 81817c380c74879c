/**
 * The SCP's own receive path (the "fast path"). dcmjs-dimse reads a socket by accumulating its
 * bytes into PDUs and handing each to its private `_processPdu`, which parses a C-STORE's data set
 * element by element. We take the socket's bytes instead (PDataReceiver, pdata-receive.ts): a
 * C-STORE's data set goes to its sink (store-scp-sink.ts) fragment by fragment, unparsed, and every
 * other PDU is handed to `_processPdu` as it arrived — association, release, C-ECHO, C-FIND.
 *
 * That hook is private to dcmjs-dimse, so its shape is checked when the SCP starts
 * ({@link assertReceiveHook}) and again on each connection: a library version without it is a
 * clear error, never a silent fall back to the slow path.
 */
import type { Socket } from 'node:net';
import type { Scp } from 'dcmjs-dimse';
import { type CommandSet, PDataReceiver } from './pdata-receive.js';

/** What the fast path needs of dcmjs-dimse's Network (the base of Scp): private, hence checked. */
interface LibraryReceiveHook {
  /** Reads one whole PDU (its 6-byte header included) and acts on it. */
  _processPdu(pdu: Buffer): unknown;
  /** The library's PDU timer reads it; we keep it as its own 'data' listener did. */
  lastPduTime?: number;
}

/** Thrown at start-up (and on a connection) when dcmjs-dimse lacks the hook the fast path needs. */
export class DimseReceiveHookError extends Error {
  constructor(detail: string) {
    super(
      `dcmjs-dimse does not have the receive hook the SCP needs (${detail}): the SCP reads ` +
        'C-STORE data sets itself and hands other PDUs to the library (store-scp-fast-path.ts). ' +
        'Check the installed dcmjs-dimse version against packages/dicom/package.json.',
    );
    this.name = 'DimseReceiveHookError';
  }
}

/** Checks that the library's Scp has `_processPdu(pdu)`: a method of one parameter. */
export function assertReceiveHook(scpClass: typeof Scp): void {
  const hook = (scpClass.prototype as unknown as Partial<LibraryReceiveHook>)._processPdu;
  if (typeof hook !== 'function') throw new DimseReceiveHookError('no _processPdu method');
  if (hook.length !== 1) {
    throw new DimseReceiveHookError(`_processPdu takes ${hook.length} parameters, not one (the PDU)`);
  }
}

/** What the connection does with what the fast path reads. */
export interface FastPathHandlers {
  /** A C-STORE-RQ's command set: 'store' to receive its data set here, 'forward' to leave it to the library. */
  command(pcid: number, command: CommandSet): 'store' | 'forward';
  /** A fragment of the data set being received. */
  storeData(chunk: Buffer): void;
  /** The data set's last fragment arrived. */
  storeEnd(): void;
  /** A whole PDU arrived (for the idle timer). */
  pduArrived(): void;
  /** The library failed on a PDU, or the bytes are not DICOM UL. */
  failure(error: Error): void;
}

/**
 * Takes the socket's bytes from dcmjs-dimse for this connection: its own 'data' listener (the one
 * its constructor added) is replaced by ours. Throws {@link DimseReceiveHookError} when the library
 * instance does not look as expected (no hook, or not exactly one 'data' listener to replace).
 */
export function takeOverReceive(library: object, socket: Socket, handlers: FastPathHandlers): void {
  const hooked = library as LibraryReceiveHook;
  const processPdu = hooked._processPdu;
  if (typeof processPdu !== 'function') throw new DimseReceiveHookError('no _processPdu on the connection');
  const listeners = socket.listenerCount('data');
  if (listeners !== 1) {
    throw new DimseReceiveHookError(
      `${listeners} 'data' listeners on the socket, expected the library's one`,
    );
  }
  const toLibrary = (pdu: Buffer) => {
    try {
      void Promise.resolve(processPdu.call(library, pdu)).catch((error: Error) => handlers.failure(error));
    } catch (error) {
      handlers.failure(error as Error);
    }
  };
  const receiver = new PDataReceiver({
    otherPdu: toLibrary,
    forwardPdu: toLibrary,
    command: handlers.command,
    storeData: handlers.storeData,
    storeEnd: handlers.storeEnd,
    protocolError: handlers.failure,
  });
  socket.removeAllListeners('data');
  socket.on('data', (chunk: Buffer) => {
    hooked.lastPduTime = Date.now();
    const before = receiver.completedPdus;
    receiver.push(chunk);
    if (receiver.completedPdus !== before) handlers.pduArrived();
  });
}
