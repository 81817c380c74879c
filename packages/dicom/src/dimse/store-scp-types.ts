/** The SCP's public types (store-scp.ts), apart so that its parts can share them without a cycle. */
import type { FindScpOptions } from './find-scp.js';
import type { DimseLogger } from './library.js';
import type { AssociationDecision } from './store-scp-association.js';

/**
 * One instance received by C-STORE (Part 10: our file meta + the data set as sent): in a temp file,
 * in memory, or both.
 */
export type ReceivedInstance = ReceivedInstanceInfo &
  (
    | {
        readonly filePath: string;
        /**
         * The file's bytes, when the instance was small enough to be received in memory
         * (`inMemoryMaxBytes`): the same bytes as the file, so the receiver need not read it back.
         */
        readonly bytes?: Uint8Array;
      }
    | {
        /** Received in memory with `inMemoryWithoutFile`: no file was written. */
        readonly filePath?: undefined;
        readonly bytes: Uint8Array;
      }
  );

export interface ReceivedInstanceInfo {
  /** Bytes of the instance (file meta header included). */
  readonly size: number;
  /**
   * sha256 (hex) of the instance's bytes (file meta header included, as in `bytes` and the file),
   * made as they arrived, when `sha256WhileReceiving` asked for it.
   */
  readonly sha256?: string;
  /** `performance.now()` when its command set and its last data byte arrived (for timing). */
  readonly commandAt?: number;
  readonly receivedAt?: number;
  readonly callingAet: string;
  readonly calledAet: string;
  readonly remoteAddress: string;
  /** From the C-STORE command set (Affected SOP Class/Instance UID). */
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  /** The presentation context's transfer syntax: the data set bytes are in it. */
  readonly transferSyntaxUid: string;
  /** Identifies the association (for logs and for grouping instances of one send). */
  readonly associationId: string;
}

/** The C-STORE response for an instance; nothing (or status 0) means Success. */
export interface StoreOutcome {
  readonly status: number;
  /** Error Comment (0000,0902), cut to 64 characters. */
  readonly errorComment?: string;
}

export interface StoreScpOptions {
  /** Our AE title: associations calling another one are rejected (unless `acceptAnyCalledAet`). */
  readonly aeTitle: string;
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port; 0 picks a free one (see the returned `port`). */
  readonly port: number;
  /** Where incoming instances are written before `onInstance` (default: a new dir under the OS temp dir, removed on close). */
  readonly tempDir?: string;
  /** Accept or reject an association request; an exception rejects it (transient). Default: accept all. */
  readonly onAssociation?: (
    callingAet: string,
    calledAet: string,
    remoteAddress: string,
  ) => AssociationDecision | Promise<AssociationDecision>;
  /**
   * Called for each instance once its file is complete; its result is the C-STORE status. It may move
   * `filePath` away (rename); whatever is left there afterwards is deleted. An exception answers
   * 0x0110 Processing failure with the message as error comment; the SCP carries on.
   */
  readonly onInstance: (instance: ReceivedInstance) => Promise<StoreOutcome | void> | StoreOutcome | void;
  /** Answer C-FIND for these information models (default: C-FIND is refused at association). */
  readonly find?: FindScpOptions;
  readonly acceptAnyCalledAet?: boolean;
  /**
   * An instance up to this size is received in memory and written to its file in one call once
   * complete (default 16 MB); a larger one is streamed to its file as it arrives.
   */
  readonly inMemoryMaxBytes?: number;
  /**
   * An instance received in memory is handed over as bytes only, without a temp file (the receiver
   * writes it where it belongs); default false: the temp file is written too.
   */
  readonly inMemoryWithoutFile?: boolean;
  /**
   * Where an instance received in memory is assembled (default: a new buffer each): e.g. reused
   * shared memory, which an ingest worker reads without a copy. The receiver owns the bytes from
   * `onInstance` on (and gives them back to its allocator).
   */
  readonly allocateBytes?: (length: number) => Uint8Array;
  /**
   * Hash each instance (sha256 of the Part 10 bytes) fragment by fragment as it arrives, so the
   * hashing overlaps the wait for the network instead of following it; asked once per instance,
   * when its command set arrives. Default false.
   */
  readonly sha256WhileReceiving?: boolean | (() => boolean);
  /**
   * The Maximum Length of the P-DATA-TF PDUs we receive (PS3.8 Annex D.1), sent in the
   * A-ASSOCIATE-AC; default {@link DEFAULT_MAX_RECEIVE_PDU}. What we send stays within the peer's.
   */
  readonly maxReceivePduLength?: number;
  /**
   * Connections at once, every address together (default {@link DEFAULT_PORT_LIMITS}); one more
   * is answered A-ASSOCIATE-RJ transient 'local limit exceeded' at once and closed.
   */
  readonly maxConnections?: number;
  /**
   * Connections at once from one remote address (an IPv6 /64 counts as one address): one address
   * can never take the whole port from the others. Refused like one over `maxConnections`.
   */
  readonly maxConnectionsPerAddress?: number;
  /**
   * ARTIM (PS3.8 §9.1.5): a connection whose A-ASSOCIATE-RQ is not complete within this time is
   * closed — bytes trickling in do not stop it — and so is one still open this long after our
   * A-ASSOCIATE-RJ or A-RELEASE-RP.
   */
  readonly associationRequestTimeoutMs?: number;
  /**
   * An association from which no whole PDU arrived for this long, while no C-STORE or C-FIND of
   * it is being answered, is aborted (A-ABORT, then closed).
   */
  readonly idleTimeoutMs?: number;
  readonly logger?: DimseLogger;
}
