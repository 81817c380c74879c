/**
 * A C-STORE / C-ECHO SCP (PS3.4 Annex B, PS3.7 §9.1.1, §9.1.5) over dcmjs-dimse that keeps every
 * instance byte-for-byte as it was sent: the presentation context takes the proposed transfer syntax
 * as it is (no transcoding) and the data set is streamed to a temp file behind a Part 10 file meta
 * header we write (ARCHITECTURE §4). Sockets have Nagle off. With `find`, the same SCP answers
 * C-FIND (find-scp.ts).
 */
import { createHash, type Hash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { association as Assoc, requests, responses } from 'dcmjs-dimse';
import { createFileMetaHeader } from '../file-meta.js';
import { getTransferSyntax, TRANSFER_SYNTAX } from '../transfer-syntax.js';
import {
  DimseStatus,
  RejectReason,
  RejectResult,
  RejectSource,
  VERIFICATION_SOP_CLASS,
} from './constants.js';
import { acceptedContextOf, answerFind, type FindScpOptions, immediateSenderOf } from './find-scp.js';
import { configureDimse, type DimseLogger } from './library.js';
import { C_STORE_RQ, type CommandSet, cStoreResponsePdu, PDataReceiver } from './pdata-receive.js';

type Association = Assoc.Association;
type PresentationContext = Assoc.PresentationContext;
type CStoreRequest = requests.CStoreRequest;
type CEchoRequest = requests.CEchoRequest;
type CFindRequest = requests.CFindRequest;
type CCancelRequest = requests.CCancelRequest;
type CFindResponse = responses.CFindResponse;
type CStoreResponse = responses.CStoreResponse;
type CEchoResponse = responses.CEchoResponse;

/** What {@link StoreScpOptions.onAssociation} decides. `true` accepts, `false` rejects the calling AE. */
export type AssociationDecision =
  | boolean
  | 'accept'
  /** A-ASSOCIATE-RJ permanent, service user, calling AE title not recognized. */
  | 'reject-calling-aet'
  /** A-ASSOCIATE-RJ permanent, service user, called AE title not recognized. */
  | 'reject-called-aet'
  /** A-ASSOCIATE-RJ transient, service provider (presentation), temporary congestion. */
  | 'busy';

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

export interface StoreScp {
  readonly port: number;
  readonly host: string;
  /** Associations open right now. */
  readonly activeAssociations: () => number;
  /**
   * Stops listening, waits up to `timeoutMs` (default 10 s) for open associations to end and their
   * `onInstance` calls to settle, then drops what is left and removes the temp dir it created.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Service SOP classes (not storage): proposals of these are refused, every other one is taken as storage. */
const NON_STORAGE_PREFIXES = [
  '1.2.840.10008.5.1.4.1.2.', // query/retrieve information models
  '1.2.840.10008.5.1.1.', // print management
  '1.2.840.10008.3.1.', // detached management, MPPS
  '1.2.840.10008.1.20.', // storage commitment
  '1.2.840.10008.5.1.4.31', // modality worklist
  '1.2.840.10008.5.1.4.34.', // unified procedure step
];

interface Incoming {
  readonly path: string;
  readonly sink: ReceiveSink;
  readonly transferSyntaxUid: string;
  size: number;
  /** Set once the data set is complete, when it was hashed as it arrived. */
  sha256?: string;
  /** Set once the file is complete, when the instance was kept in memory. */
  bytes?: Uint8Array;
  /** No file was written: `bytes` is the instance. */
  inMemoryOnly?: boolean;
  commandAt?: number;
  receivedAt?: number;
  error?: Error;
}

const DEFAULT_IN_MEMORY_MAX_BYTES = 16 * 2 ** 20;

/**
 * The port's limits when the caller sets none (the server's come from its configuration). Each
 * accepted association may hold an instance of up to 16 MB in memory: the global cap bounds that.
 */
export const DEFAULT_PORT_LIMITS = {
  maxConnections: 256,
  maxConnectionsPerAddress: 16,
  associationRequestTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
} as const;

/** dcmjs-dimse's own timers, which count any byte as activity, are left with nothing to do. */
const LIBRARY_TIMER_OFF_MS = 2 ** 31 - 1;

/** A-ASSOCIATE-RJ transient, service provider (presentation), local limit exceeded (PS3.8 §9.3.4). */
const LOCAL_LIMIT_REJECT = Buffer.from([0x03, 0, 0, 0, 0, 4, 0, 2, 3, 2]);

/**
 * The key a connection is counted under: its IPv4 address, or the /64 prefix of an IPv6 one (a
 * single host usually holds a whole /64, so counting /128s would cap nothing).
 */
export function addressKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Our maximum receive PDU (dcmjs-dimse's own default). A sender cuts each instance into PDUs of at
 * most this length: DCMTK's storescu sends 16 KB PDUs to a peer that offers 16 KB (a 0.5 MB slice
 * = 32 PDUs, each a header to read and a PDV to cut), two at 256 KB. 1 MB measured no better.
 */
export const DEFAULT_MAX_RECEIVE_PDU = 256 * 1024;

/**
 * Where dcmjs-dimse puts a C-STORE data set, fragment by fragment. Fragments are kept in memory
 * (they are slices of received PDUs: no copy) and written to the file with its meta header in one
 * call at the end — one thread-pool write per instance instead of one per fragment, and the
 * receiver gets the bytes without reading the file back. Past `maxInMemory` the sink spills to a
 * file stream and pauses the socket while the disk is behind. dcmjs-dimse is always told a write
 * went through: its own drain wait would let the PDUs that follow overtake each other.
 */
class ReceiveSink extends Writable {
  private chunks: Uint8Array[] = [];
  private length = 0;
  private file: WriteStream | undefined;
  private paused = false;
  private ended = false;
  /** Hashes every byte in order as it arrives (`sha256WhileReceiving`). */
  private hash: Hash | undefined;
  /** Settles when the file is complete (or failed: see `incoming.error`). */
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly incoming: Omit<Incoming, 'sink'>,
    header: Uint8Array,
    private readonly socket: Socket,
    private readonly maxInMemory: number,
    private readonly withoutFile: boolean,
    private readonly allocate?: (length: number) => Uint8Array,
    hashing = false,
  ) {
    super();
    this.done = new Promise<void>((resolve) => (this.finish = resolve));
    this.chunks.push(header);
    this.length = header.length;
    if (hashing) this.hash = createHash('sha256').update(header);
  }

  override write(chunk: Uint8Array): boolean {
    this.length += chunk.length;
    this.hash?.update(chunk);
    if (this.file) {
      this.toFile(chunk);
      return true;
    }
    this.chunks.push(chunk);
    if (this.length > this.maxInMemory) {
      this.file = createWriteStream(this.incoming.path, { highWaterMark: 1 << 20 });
      this.file.on('error', (error) => (this.incoming.error ??= error));
      this.file.once('close', () => {
        if (this.paused) this.socket.resume();
        this.finish();
      });
      const pending = this.chunks;
      this.chunks = [];
      for (const c of pending) this.toFile(c);
    }
    return true;
  }

  private toFile(chunk: Uint8Array): void {
    const file = this.file!;
    if (!file.write(chunk) && !this.paused && !this.incoming.error) {
      this.paused = true;
      this.socket.pause();
      file.once('drain', () => {
        this.paused = false;
        this.socket.resume();
      });
    }
  }

  override end(): this {
    this.ended = true;
    if (this.hash) (this.incoming as Incoming).sha256 = this.hash.digest('hex');
    this.hash = undefined;
    if (this.file) {
      this.file.end();
      return this;
    }
    const bytes = this.allocate
      ? this.assemble(this.allocate(this.length))
      : this.chunks.length === 1
        ? this.chunks[0]!
        : Buffer.concat(this.chunks, this.length);
    this.chunks = [];
    if (this.withoutFile) {
      (this.incoming as Incoming).bytes = bytes;
      (this.incoming as Incoming).inMemoryOnly = true;
      this.finish();
      return this;
    }
    writeFile(this.incoming.path, bytes).then(
      () => {
        (this.incoming as Incoming).bytes = bytes;
        this.finish();
      },
      (error: Error) => {
        this.incoming.error ??= error;
        this.finish();
      },
    );
    return this;
  }

  private assemble(into: Uint8Array): Uint8Array {
    let at = 0;
    for (const chunk of this.chunks) {
      into.set(chunk, at);
      at += chunk.length;
    }
    return into;
  }

  /** The connection ended mid-instance: drop what was received. */
  discard(): Promise<void> {
    this.chunks = [];
    this.hash = undefined;
    if (this.file) this.file.destroy();
    else if (!this.ended) this.finish();
    return this.done;
  }

  get received(): number {
    return this.length;
  }
}

const UNCOMPRESSED_PREFERENCE: readonly string[] = [
  TRANSFER_SYNTAX.explicitVrLittleEndian,
  TRANSFER_SYNTAX.implicitVrLittleEndian,
  TRANSFER_SYNTAX.explicitVrBigEndian,
];

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Error Comment is LO: at most 64 characters, no backslash or control characters. */
function toErrorComment(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\\\u0000-\u001f\u007f-\uffff]/g, ' ').slice(0, 64);
}

function isStorageCandidate(sopClassUid: string, serviceClasses: ReadonlySet<string>): boolean {
  if (serviceClasses.has(sopClassUid)) return false;
  return !NON_STORAGE_PREFIXES.some((prefix) => sopClassUid.startsWith(prefix));
}

/** Starts the SCP; resolves once it listens. */
export async function startStoreScp(options: StoreScpOptions): Promise<StoreScp> {
  const dimse = configureDimse();
  const { Scp, Dataset } = dimse;
  const { CEchoResponse, CStoreResponse, CFindResponse } = dimse.responses;
  const { PresentationContextResult, SopClass } = dimse.constants;
  const serviceClasses = new Set<string>(Object.values(SopClass) as string[]);
  const host = options.host ?? '127.0.0.1';
  const maxConnections = options.maxConnections ?? DEFAULT_PORT_LIMITS.maxConnections;
  const maxPerAddress = options.maxConnectionsPerAddress ?? DEFAULT_PORT_LIMITS.maxConnectionsPerAddress;
  const artimMs = options.associationRequestTimeoutMs ?? DEFAULT_PORT_LIMITS.associationRequestTimeoutMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_PORT_LIMITS.idleTimeoutMs;
  const inMemoryMaxBytes = options.inMemoryMaxBytes ?? DEFAULT_IN_MEMORY_MAX_BYTES;
  const inMemoryWithoutFile = options.inMemoryWithoutFile ?? false;
  const sha256WhileReceiving = options.sha256WhileReceiving ?? false;
  const maxReceivePduLength = options.maxReceivePduLength ?? DEFAULT_MAX_RECEIVE_PDU;
  const log = options.logger;
  const ownTempDir = options.tempDir === undefined;
  const tempDir = options.tempDir ?? (await mkdtemp(join(tmpdir(), 'radflow-scp-')));

  const sockets = new Set<Socket>();
  /** Open connections per address key ({@link addressKeyOf}). */
  const perAddress = new Map<string, number>();
  /** When a refusal was last logged per address key: a flood of connections logs once a minute. */
  const refusalLogged = new Map<string, number>();
  const pendingStores = new Set<Promise<void>>();

  class RadflowStoreScp extends Scp {
    private readonly connection: Socket;
    private readonly associationId = randomUUID();
    private callingAet = '';
    private calledAet = '';
    private readonly remoteAddress: string;
    private readonly byRequest = new WeakMap<object, Incoming>();
    private readonly byStream = new WeakMap<object, Incoming>();
    private readonly unfinished = new Set<Incoming>();
    private association: Association | undefined;
    /** C-FINDs being answered, by message ID, so a C-CANCEL can stop one. */
    private readonly finds = new Map<number, AbortController>();
    /** The C-STORE whose data set the lean receive path is reading (pdata-receive.ts). */
    private receiving: { incoming: Incoming; pcid: number; command: CommandSet } | undefined;
    /** The ARTIM or the idle timer, whichever the connection's state runs. */
    private timer: NodeJS.Timeout | undefined;
    private timerKind: 'artim' | 'idle' | undefined;
    /** C-STOREs and C-FINDs of this association being answered: it is not idle meanwhile. */
    private answering = 0;

    constructor(socket: Socket, opts: ConstructorParameters<typeof Scp>[1]) {
      super(socket, opts);
      this.connection = socket;
      this.remoteAddress = socket.remoteAddress ?? '';
      // What dcmjs-dimse's own Server sets: arms the association timeout for this connection.
      Object.assign(this, { connected: true, connectedTime: Date.now() });
      this.on('networkError', (error: Error) => this.networkFailure(error));
      socket.on('close', () => {
        this.stopTimer();
        this.discardUnfinished();
        for (const find of this.finds.values()) find.abort();
      });
      // Without the lean path, any bytes count as activity for the idle timer (PDUs are not seen).
      if (!this.takeOverReceive(socket)) socket.on('data', () => this.pduArrived());
      this.startTimer('artim');
    }

    /**
     * ARTIM runs from the connection to a complete A-ASSOCIATE-RQ, and again after our RJ or
     * RELEASE-RP until the peer closes; the idle timer runs while the association is open.
     */
    private startTimer(kind: 'artim' | 'idle'): void {
      this.stopTimer();
      this.timerKind = kind;
      this.timer = setTimeout(() => this.timerFired(), kind === 'artim' ? artimMs : idleTimeoutMs);
      this.timer.unref();
    }

    private stopTimer(): void {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.timerKind = undefined;
    }

    /** A whole PDU arrived: the open association is not idle. */
    private pduArrived(): void {
      if (this.timerKind === 'idle') this.timer?.refresh();
    }

    private timerFired(): void {
      if (this.connection.destroyed) return;
      if (this.timerKind === 'idle') {
        // The peer waits for us: our own slowness is not its idleness. (A data set being received
        // does not count: that is the peer's to send, and a peer that stops mid-way is idle.)
        if (this.answering > 0) {
          this.timer?.refresh();
          return;
        }
        log?.warn?.(
          { callingAet: this.callingAet, remoteAddress: this.remoteAddress, idleTimeoutMs },
          'DIMSE association idle: aborted',
        );
        try {
          this.sendAbort();
        } catch {
          // The socket may already be unwritable: closing is what matters.
        }
      } else {
        log?.info?.(
          { callingAet: this.callingAet, remoteAddress: this.remoteAddress, artimMs },
          'DIMSE connection closed by the ARTIM timer',
        );
      }
      this.stopTimer();
      this.connection.end(() => this.connection.destroy());
      // A peer that does not read must not hold the socket either.
      setTimeout(() => this.connection.destroy(), 1000).unref();
    }

    private networkFailure(error: Error): void {
      log?.warn?.({ err: error, associationId: this.associationId }, 'DIMSE network error');
      this.connection.destroy();
    }

    /**
     * The lean receive path (pdata-receive.ts): C-STOREs are read and answered here, every other
     * PDU goes to dcmjs-dimse's own `_processPdu` as it arrived. Without that method (another
     * library version) dcmjs-dimse keeps the socket and the overrides below do the work.
     */
    private takeOverReceive(socket: Socket): boolean {
      const library = this as unknown as { _processPdu?: (pdu: Buffer) => unknown; lastPduTime?: number };
      const processPdu = library._processPdu;
      if (typeof processPdu !== 'function') return false;
      const toLibrary = (pdu: Buffer) => {
        try {
          void Promise.resolve(processPdu.call(this, pdu)).catch((error: Error) =>
            this.networkFailure(error),
          );
        } catch (error) {
          this.networkFailure(error as Error);
        }
      };
      const receiver = new PDataReceiver({
        otherPdu: toLibrary,
        forwardPdu: toLibrary,
        command: (pcid, command) => this.lean(pcid, command),
        storeData: (chunk) => this.receiving?.incoming.sink.write(chunk),
        storeEnd: () => this.leanStoreEnd(),
        protocolError: (error) => this.networkFailure(error),
      });
      socket.removeAllListeners('data');
      socket.on('data', (chunk: Buffer) => {
        library.lastPduTime = Date.now();
        const before = receiver.completedPdus;
        receiver.push(chunk);
        if (receiver.completedPdus !== before) this.pduArrived();
      });
      return true;
    }

    /** A C-STORE-RQ on an accepted context is received here; anything else goes to dcmjs-dimse. */
    private lean(pcid: number, command: CommandSet): 'store' | 'forward' {
      if (command.commandField !== C_STORE_RQ || !command.hasDataSet || !this.association) return 'forward';
      let context: PresentationContext;
      try {
        context = this.association.getPresentationContext(pcid);
      } catch {
        // An unknown context id: dcmjs-dimse answers it as it always did.
        return 'forward';
      }
      if (context.getResult() !== PresentationContextResult.Accept) return 'forward';
      const incoming = this.beginIncoming(
        context,
        command.affectedSopClassUid,
        command.affectedSopInstanceUid,
      );
      incoming.commandAt = performance.now();
      this.receiving = { incoming, pcid, command };
      return 'store';
    }

    private leanStoreEnd(): void {
      const receiving = this.receiving;
      this.receiving = undefined;
      if (!receiving) return;
      const { incoming, pcid, command } = receiving;
      incoming.receivedAt = performance.now();
      incoming.sink.end();
      this.answering++;
      const work = incoming.sink.done.then(() => {
        incoming.size = incoming.sink.received;
        return this.store(
          incoming,
          command.affectedSopClassUid,
          command.affectedSopInstanceUid,
          (outcome) => {
            const comment = outcome.errorComment ? toErrorComment(outcome.errorComment) : undefined;
            this.connection.write(cStoreResponsePdu(pcid, command, outcome.status, comment));
          },
        );
      });
      pendingStores.add(work);
      void work.finally(() => {
        pendingStores.delete(work);
        this.answered();
      });
    }

    /** An answer went out: the idle time counts from now. */
    private answered(): void {
      this.answering--;
      this.timer?.refresh();
    }

    override associationRequested(association: Association): void {
      this.stopTimer();
      void this.answerAssociation(association);
    }

    override sendAssociationReject(result?: number, source?: number, reason?: number): void {
      super.sendAssociationReject(result, source, reason);
      this.startTimer('artim');
    }

    override sendAssociationAccept(): void {
      super.sendAssociationAccept();
      this.startTimer('idle');
    }

    override sendAssociationReleaseResponse(): void {
      super.sendAssociationReleaseResponse();
      this.startTimer('artim');
    }

    private async answerAssociation(association: Association): Promise<void> {
      this.callingAet = association.getCallingAeTitle().trim();
      this.calledAet = association.getCalledAeTitle().trim();
      let decision: AssociationDecision;
      if (!options.acceptAnyCalledAet && this.calledAet !== options.aeTitle.trim()) {
        decision = 'reject-called-aet';
      } else {
        try {
          decision = options.onAssociation
            ? await options.onAssociation(this.callingAet, this.calledAet, this.remoteAddress)
            : true;
        } catch (error) {
          log?.error?.({ err: error, callingAet: this.callingAet }, 'DIMSE onAssociation failed');
          decision = 'busy';
        }
      }
      if (this.connection.destroyed) return;
      if (decision !== true && decision !== 'accept') {
        const [result, source, reason] =
          decision === 'reject-called-aet'
            ? [RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized]
            : decision === 'busy'
              ? [
                  RejectResult.Transient,
                  RejectSource.ServiceProviderPresentation,
                  RejectReason.TemporaryCongestion,
                ]
              : [RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CallingAeNotRecognized];
        log?.info?.(
          {
            callingAet: this.callingAet,
            calledAet: this.calledAet,
            remoteAddress: this.remoteAddress,
            decision,
          },
          'DIMSE association rejected',
        );
        this.sendAssociationReject(result, source, reason);
        return;
      }
      this.association = association;
      for (const { id } of association.getPresentationContexts()) {
        this.negotiate(association.getPresentationContext(id));
      }
      // dcmjs-dimse keeps one Maximum Length per association: it answers min(the peer's, its own)
      // in the A-ASSOCIATE-AC and cuts what it sends to it. The AC is to carry what WE receive
      // (PS3.8 D.1; a storescu offering 16 KB would otherwise send us 16 KB PDUs), what we send
      // must stay within what the peer receives: ours for the AC (written at once), then the peer's.
      const peerMaxPduLength = association.getMaxPduLength();
      association.setMaxPduLength(maxReceivePduLength);
      const libraryMax = dimse.Implementation.getMaxPduLength();
      dimse.Implementation.setMaxPduLength(maxReceivePduLength);
      try {
        this.sendAssociationAccept();
      } finally {
        dimse.Implementation.setMaxPduLength(libraryMax);
        association.setMaxPduLength(peerMaxPduLength);
      }
    }

    /** Verification: an uncompressed syntax; storage: the first proposed syntax we know, as it is. */
    private negotiate(context: PresentationContext): void {
      const abstract = context.getAbstractSyntaxUid();
      const proposed = [...context.getTransferSyntaxUids()];
      if (abstract === VERIFICATION_SOP_CLASS) {
        const syntax = UNCOMPRESSED_PREFERENCE.find((uid) => proposed.includes(uid));
        if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
        return;
      }
      if (options.find?.sopClassUids.includes(abstract)) {
        const syntax = UNCOMPRESSED_PREFERENCE.find((uid) => proposed.includes(uid));
        if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
        else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
        return;
      }
      if (!isStorageCandidate(abstract, serviceClasses)) {
        context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
        return;
      }
      const syntax = proposed.find((uid) => getTransferSyntax(uid) !== undefined);
      if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
      else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
    }

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
    }

    override cEchoRequest(request: CEchoRequest, callback: (response: CEchoResponse) => void): void {
      const response = CEchoResponse.fromRequest(request);
      response.setStatus(DimseStatus.Success);
      callback(response);
    }

    override cFindRequest(request: CFindRequest, callback: (responses: CFindResponse[]) => void): void {
      const find = options.find;
      const sopClassUid = request.getAffectedSopClassUid();
      const context = this.association
        ? acceptedContextOf(this.association, sopClassUid, PresentationContextResult.Accept)
        : undefined;
      if (!find || !context) {
        const response = CFindResponse.fromRequest(request);
        response.setStatus(DimseStatus.SopClassNotSupported);
        callback([response]);
        return;
      }
      const controller = new AbortController();
      const messageId = request.getMessageId();
      this.answering++;
      this.finds.set(messageId, controller);
      const work = answerFind(
        dimse,
        find,
        {
          sopClassUid,
          identifierElements: request.getDataset()?.getElements() ?? {},
          callingAet: this.callingAet,
          calledAet: this.calledAet,
          associationId: this.associationId,
        },
        request,
        context,
        { socket: this.connection, sendNow: immediateSenderOf(this, context) },
        controller.signal,
        callback,
      )
        .catch((error: unknown) =>
          log?.error?.({ err: error, callingAet: this.callingAet }, 'DIMSE C-FIND failed'),
        )
        .finally(() => {
          this.finds.delete(messageId);
          pendingStores.delete(work);
          this.answered();
        });
      pendingStores.add(work);
    }

    override cCancelRequest(request: CCancelRequest): void {
      this.finds.get(request.getMessageIdBeingRespondedTo())?.abort();
    }

    override createStoreWritableStream(context: PresentationContext, request: CStoreRequest): Writable {
      const incoming = this.beginIncoming(
        context,
        request.getAffectedSopClassUid(),
        request.getAffectedSopInstanceUid(),
      );
      this.byRequest.set(request, incoming);
      this.byStream.set(incoming.sink, incoming);
      return incoming.sink;
    }

    private beginIncoming(
      context: PresentationContext,
      sopClassUid: string,
      sopInstanceUid: string,
    ): Incoming {
      const transferSyntaxUid =
        context.getAcceptedTransferSyntaxUid() ?? TRANSFER_SYNTAX.implicitVrLittleEndian;
      const path = join(tempDir, `${randomUUID()}.dcm.part`);
      const header = createFileMetaHeader({
        sopClassUid,
        sopInstanceUid,
        transferSyntaxUid,
        sourceAeTitle: this.callingAet,
      });
      const partial: Omit<Incoming, 'sink'> = { path, transferSyntaxUid, size: 0 };
      const sink = new ReceiveSink(
        partial,
        header,
        this.connection,
        inMemoryMaxBytes,
        inMemoryWithoutFile,
        options.allocateBytes,
        typeof sha256WhileReceiving === 'function' ? sha256WhileReceiving() : sha256WhileReceiving,
      );
      const incoming = Object.assign(partial, { sink }) as Incoming;
      this.unfinished.add(incoming);
      return incoming;
    }

    override createDatasetFromStoreWritableStream(
      writable: Writable,
      context: PresentationContext,
      callback: (dataset: InstanceType<typeof Dataset>) => void,
    ): void {
      const incoming = this.byStream.get(writable);
      const syntax = context.getAcceptedTransferSyntaxUid();
      // The data set stays as received: dcmjs-dimse gets an empty one so it parses nothing.
      const done = () => callback(new Dataset({}, syntax));
      if (!incoming) {
        done();
        return;
      }
      incoming.sink.done.then(() => {
        incoming.size = incoming.sink.received;
        done();
      }, done);
    }

    override cStoreRequest(request: CStoreRequest, callback: (response: CStoreResponse) => void): void {
      this.answering++;
      const work = this.store(
        this.byRequest.get(request),
        request.getAffectedSopClassUid(),
        request.getAffectedSopInstanceUid(),
        (outcome) => {
          const response = CStoreResponse.fromRequest(request);
          response.setStatus(outcome.status);
          if (outcome.errorComment) response.setErrorComment(toErrorComment(outcome.errorComment));
          callback(response);
        },
      );
      pendingStores.add(work);
      void work.finally(() => {
        pendingStores.delete(work);
        this.answered();
      });
    }

    private async store(
      incoming: Incoming | undefined,
      sopClassUid: string,
      sopInstanceUid: string,
      respond: (outcome: StoreOutcome) => void,
    ): Promise<void> {
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
            callingAet: this.callingAet,
            calledAet: this.calledAet,
            remoteAddress: this.remoteAddress,
            sopClassUid,
            sopInstanceUid,
            transferSyntaxUid: incoming.transferSyntaxUid,
            associationId: this.associationId,
          };
          const result = await options.onInstance(
            incoming.inMemoryOnly && incoming.bytes
              ? { ...common, bytes: incoming.bytes }
              : { ...common, filePath: incoming.path, ...(incoming.bytes ? { bytes: incoming.bytes } : {}) },
          );
          outcome = result ?? { status: DimseStatus.Success };
        } catch (error) {
          log?.error?.(
            { err: error, sopInstanceUid, callingAet: this.callingAet },
            'DIMSE onInstance failed',
          );
          outcome = { status: DimseStatus.ProcessingFailure, errorComment: errorMessage(error) };
        }
      }
      if (incoming) {
        this.unfinished.delete(incoming);
        incoming.bytes = undefined;
        // Usually moved away by onInstance already: one unlink, not rm's lstat + unlink.
        if (!incoming.inMemoryOnly) await unlink(incoming.path).catch(() => undefined);
      }
      if (this.connection.destroyed) return;
      respond(outcome);
    }

    override abort(): void {
      this.connection.destroy();
    }

    /** A connection that ended in the middle of a C-STORE leaves no file behind. */
    private discardUnfinished(): void {
      for (const incoming of this.unfinished) {
        void incoming.sink
          .discard()
          .then(() => unlink(incoming.path))
          .catch(() => undefined);
      }
      this.unfinished.clear();
    }
  }

  /** Over a cap: an A-ASSOCIATE-RJ (transient, local limit exceeded) before any request, then closed. */
  const refuse = (socket: Socket, key: string, reason: string) => {
    const now = Date.now();
    if ((refusalLogged.get(key) ?? 0) < now - 60_000) {
      if (refusalLogged.size > 1000) refusalLogged.clear();
      refusalLogged.set(key, now);
      log?.warn?.({ remoteAddress: socket.remoteAddress, reason }, 'DIMSE connection refused');
    }
    socket.on('error', () => undefined);
    socket.end(LOCAL_LIMIT_REJECT, () => socket.destroy());
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const server = createServer((socket) => {
    const key = addressKeyOf(socket.remoteAddress ?? '');
    const fromAddress = perAddress.get(key) ?? 0;
    if (fromAddress >= maxPerAddress) return refuse(socket, key, 'too many connections from this address');
    if (sockets.size >= maxConnections) return refuse(socket, key, 'too many connections');
    socket.setNoDelay(true);
    sockets.add(socket);
    perAddress.set(key, fromAddress + 1);
    socket.once('close', () => {
      sockets.delete(socket);
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
    try {
      new RadflowStoreScp(socket, {
        associationTimeout: LIBRARY_TIMER_OFF_MS,
        pduTimeout: LIBRARY_TIMER_OFF_MS,
        connectTimeout: LIBRARY_TIMER_OFF_MS,
      });
    } catch (error) {
      log?.error?.({ err: error }, 'DIMSE connection setup failed');
      socket.destroy();
    }
  });
  server.on('error', (error) => log?.error?.({ err: error }, 'DIMSE server error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    host,
    activeAssociations: () => sockets.size,
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
