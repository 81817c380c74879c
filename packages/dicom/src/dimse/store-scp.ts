/**
 * A C-STORE / C-ECHO SCP (PS3.4 Annex B, PS3.7 §9.1.1, §9.1.5) over dcmjs-dimse that keeps every
 * instance byte-for-byte as it was sent: the presentation context takes the proposed transfer syntax
 * as it is (no transcoding) and the data set is streamed to a temp file behind a Part 10 file meta
 * header we write (ARCHITECTURE §4). Sockets have Nagle off. With `find`, the same SCP answers
 * C-FIND (find-scp.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureDimse } from './library.js';
import type { StoreScpOptions } from './store-scp-types.js';
import { connectionClass, type ReceivePathCounts } from './store-scp-connection.js';
import { assertReceiveHook } from './store-scp-fast-path.js';
import { DEFAULT_PORT_LIMITS, listenPort } from './store-scp-port.js';
import { DEFAULT_IN_MEMORY_MAX_BYTES } from './store-scp-sink.js';

export type { AssociationDecision } from './store-scp-association.js';
export type {
  ReceivedInstance,
  ReceivedInstanceInfo,
  StoreOutcome,
  StoreScpOptions,
} from './store-scp-types.js';
export { DimseReceiveHookError } from './store-scp-fast-path.js';
export type { ReceivePathCounts } from './store-scp-connection.js';
export { addressKeyOf, DEFAULT_PORT_LIMITS } from './store-scp-port.js';

export interface StoreScp {
  readonly port: number;
  readonly host: string;
  /** Associations open right now. */
  readonly activeAssociations: () => number;
  /**
   * Instances received by each path since the start: ours (`fastPath`, store-scp-fast-path.ts) and
   * dcmjs-dimse's (`library`, a C-STORE our path left to it). A probe for tests and logs: every
   * C-STORE on an accepted context is expected on the fast path.
   */
  readonly receivedBy: () => Readonly<ReceivePathCounts>;
  /** The listening socket's server: for a caller that counts its accepted connections. */
  readonly server: Pick<Server, 'on' | 'off'>;
  /**
   * Stops listening, waits up to `timeoutMs` (default 10 s) for open associations to end and their
   * `onInstance` calls to settle, then drops what is left and removes the temp dir it created.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** dcmjs-dimse's own timers, which count any byte as activity, are left with nothing to do. */
const LIBRARY_TIMER_OFF_MS = 2 ** 31 - 1;

/**
 * Our maximum receive PDU (dcmjs-dimse's own default). A sender cuts each instance into PDUs of at
 * most this length: DCMTK's storescu sends 16 KB PDUs to a peer that offers 16 KB (a 0.5 MB slice
 * = 32 PDUs, each a header to read and a PDV to cut), two at 256 KB. 1 MB measured no better.
 */
export const DEFAULT_MAX_RECEIVE_PDU = 256 * 1024;

/**
 * Starts the SCP; resolves once it listens. Throws a DimseReceiveHookError when the installed
 * dcmjs-dimse lacks the hook our receive path needs (store-scp-fast-path.ts).
 */
export async function startStoreScp(options: StoreScpOptions): Promise<StoreScp> {
  const dimse = configureDimse();
  assertReceiveHook(dimse.Scp);
  const ownTempDir = options.tempDir === undefined;
  const tempDir = options.tempDir ?? (await mkdtemp(join(tmpdir(), 'radflow-scp-')));
  const pendingStores = new Set<Promise<void>>();
  const receivedBy: ReceivePathCounts = { fastPath: 0, library: 0 };
  const Connection = connectionClass({
    dimse,
    options,
    tempDir,
    artimMs: options.associationRequestTimeoutMs ?? DEFAULT_PORT_LIMITS.associationRequestTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_PORT_LIMITS.idleTimeoutMs,
    inMemoryMaxBytes: options.inMemoryMaxBytes ?? DEFAULT_IN_MEMORY_MAX_BYTES,
    inMemoryWithoutFile: options.inMemoryWithoutFile ?? false,
    sha256WhileReceiving: options.sha256WhileReceiving ?? false,
    maxReceivePduLength: options.maxReceivePduLength ?? DEFAULT_MAX_RECEIVE_PDU,
    pendingStores,
    receivedBy,
  });
  const host = options.host ?? '127.0.0.1';
  const { server, port, sockets } = await listenPort(
    {
      host,
      port: options.port,
      maxConnections: options.maxConnections ?? DEFAULT_PORT_LIMITS.maxConnections,
      maxPerAddress: options.maxConnectionsPerAddress ?? DEFAULT_PORT_LIMITS.maxConnectionsPerAddress,
      log: options.logger,
    },
    (socket) =>
      new Connection(socket, {
        associationTimeout: LIBRARY_TIMER_OFF_MS,
        pduTimeout: LIBRARY_TIMER_OFF_MS,
        connectTimeout: LIBRARY_TIMER_OFF_MS,
      }),
  );

  return {
    port,
    host,
    server,
    activeAssociations: () => sockets.size,
    receivedBy: () => ({ ...receivedBy }),
    async close(timeoutMs = 10_000): Promise<void> {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const deadline = Date.now() + timeoutMs;
      while ((sockets.size > 0 || pendingStores.size > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      for (const socket of sockets) socket.destroy();
      await Promise.race([Promise.allSettled([...pendingStores]), new Promise((r) => setTimeout(r, 1000))]);
      await stopped;
      if (ownTempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}
