/**
 * C-ECHO and C-STORE SCU over dcmjs-dimse (PS3.7 §9.1.1, §9.1.5), one association per call, Nagle off.
 *
 * C-STORE sends each data set as the file stores it, read from disk at send time, when the peer
 * accepted the file's own transfer syntax: dcmjs-dimse would otherwise parse and re-encode every
 * data set. Only when the peer took nothing but a fallback syntax (explicit/implicit VR little
 * endian) for a file in another uncompressed syntax does dcmjs-dimse transcode it.
 */
import { open, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Client as DimseClient, association as Assoc } from 'dcmjs-dimse';
import { DicomParseError } from '../errors.js';
import { locateDataset, parseInstance } from '../parse.js';
import { getTransferSyntax, TRANSFER_SYNTAX } from '../transfer-syntax.js';
import { DimseStatus, isStoredStatus, VERIFICATION_SOP_CLASS } from './constants.js';
import { DimseError, toDimseError } from './errors.js';
import { configureDimse, dimse } from './library.js';

type Association = Assoc.Association;

export interface DimsePeer {
  readonly host: string;
  readonly port: number;
  readonly callingAet: string;
  readonly calledAet: string;
  /**
   * Longest wait for the connection, the association answer or any PDU from the peer (so also for
   * sending one instance and getting its response). Default 30 s for C-ECHO, 120 s for C-STORE.
   */
  readonly timeoutMs?: number;
}

export interface CEchoResult {
  /** The C-ECHO response status (0x0000 Success). */
  readonly status: number;
  readonly elapsedMs: number;
}

/** The spec's Router-send record statuses for one instance (SEND = stored by the peer). */
export type CStoreInstanceStatus = 'SEND' | 'FAILED';

export interface CStoreInstanceResult {
  readonly filePath: string;
  /** Empty when the file could not be read as DICOM. */
  readonly sopInstanceUid: string;
  readonly status: CStoreInstanceStatus;
  /** The peer's C-STORE response status, when one came. Warnings (0xB000…) count as SEND. */
  readonly dimseStatus?: number;
  /** The transfer syntax the data set went in; differs from the file's only after transcoding. */
  readonly transferSyntaxUid?: string;
  /**
   * Sent re-encoded by dcmjs rather than as the stored bytes: the peer accepted only another
   * (uncompressed) syntax, or the data set has odd length (a non-conformant odd value).
   */
  readonly reencoded?: boolean;
  readonly error?: string;
}

export interface CStoreProgress {
  readonly done: number;
  readonly total: number;
  readonly result: CStoreInstanceResult;
}

export interface CStoreOptions extends DimsePeer {
  /** Paths of Part 10 files (or bare data sets); an async iterable is read to the end before associating. */
  readonly files: Iterable<string> | AsyncIterable<string>;
  readonly onProgress?: (progress: CStoreProgress) => void;
}

export interface CStoreOutcome {
  /** One per file, in the order given. */
  readonly results: CStoreInstanceResult[];
  readonly sent: number;
  readonly failed: number;
  readonly elapsedMs: number;
  /** Set when the association broke off (abort, timeout) after it was accepted; unsent files are FAILED. */
  readonly interrupted?: DimseError;
}

/** What the association needs to know about a file before sending it. */
export interface StoreFileHeader {
  readonly filePath: string;
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  readonly transferSyntaxUid: string;
  /** Offset of the data set in the file (after the file meta). */
  readonly datasetStart: number;
  /** Bytes of the data set as stored (to the end of the file). */
  readonly datasetLength: number;
}

const HEAD_BYTES = 256 * 1024;
const UNCOMPRESSED_LE = new Set<string>([
  TRANSFER_SYNTAX.explicitVrLittleEndian,
  TRANSFER_SYNTAX.implicitVrLittleEndian,
]);
const MAX_PRESENTATION_CONTEXTS = 128;

/** Reads the UIDs and the data set offset of a file from its first bytes (the whole file if needed). */
export async function readStoreFileHeader(filePath: string): Promise<StoreFileHeader> {
  const handle = await open(filePath, 'r');
  let head: Uint8Array;
  let isWhole: boolean;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
    isWhole = bytesRead >= size;
  } finally {
    await handle.close();
  }
  const parse = (bytes: Uint8Array) => {
    const parsed = parseInstance(bytes, { requireUids: false });
    const location = locateDataset(bytes);
    return {
      filePath,
      sopClassUid: parsed.sopClassUid,
      sopInstanceUid: parsed.sopInstanceUid,
      transferSyntaxUid: location.transferSyntaxUid,
      datasetStart: location.datasetStart,
      datasetLength: size - location.datasetStart,
    };
  };
  let header: StoreFileHeader;
  try {
    header = parse(head);
  } catch (error) {
    if (isWhole || !(error instanceof DicomParseError)) throw error;
    header = parse(new Uint8Array(await readFile(filePath)));
  }
  if (!header.sopClassUid || !header.sopInstanceUid)
    throw new DicomParseError(
      'MISSING_UID',
      'No SOP Class UID or SOP Instance UID: the instance cannot be sent',
    );
  return header;
}

function peerName(peer: DimsePeer): string {
  return `${peer.calledAet}@${peer.host}:${peer.port}`;
}

interface Connection {
  readonly client: DimseClient;
  readonly association: () => Association | undefined;
  /** Resolves when the connection closed after an accepted association; rejects when it never was accepted. */
  readonly finished: Promise<{ interrupted?: DimseError }>;
}

interface NetworkInternals {
  readonly association?: Association;
  readonly socket?: Socket;
  on(event: string, listener: () => void): void;
}

/** Opens the association and runs the client's requests; the promise settles when the socket closes. */
function connect(client: DimseClient, peer: DimsePeer, timeoutMs: number): Connection {
  const name = peerName(peer);
  let accepted = false;
  let failure: DimseError | undefined;
  let released = false;
  const finished = new Promise<{ interrupted?: DimseError }>((resolve, reject) => {
    client.on('associationAccepted', () => {
      accepted = true;
    });
    client.on('associationRejected', (details: { result: number; source: number; reason: number }) => {
      failure ??= DimseError.rejected(details, name);
    });
    client.on('associationReleased', () => {
      released = true;
    });
    client.on('networkError', (error: unknown) => {
      failure ??= toDimseError(error, name);
    });
    client.on('closed', () => {
      if (!accepted)
        reject(failure ?? new DimseError('ABORTED', `${name}: connection closed before the association`));
      else if (!released)
        resolve({ interrupted: failure ?? new DimseError('ABORTED', `${name}: association aborted`) });
      else resolve({});
    });
  });
  // A peer may close without answering (or abort); dcmjs-dimse then only sees the socket close.
  client.send(peer.host, peer.port, peer.callingAet, peer.calledAet, {
    connectTimeout: timeoutMs,
    associationTimeout: timeoutMs,
    pduTimeout: timeoutMs,
  });
  // dcmjs-dimse's Network (not exported, not typed): the socket to set Nagle off on, the association.
  const network = (client as unknown as { network?: NetworkInternals }).network;
  network?.socket?.setNoDelay(true);
  network?.socket?.once('connect', () => network.socket?.setNoDelay(true));
  // dcmjs-dimse's Client ignores an A-ABORT from the peer and waits for its timeout.
  network?.on('abort', () => {
    failure ??= new DimseError('ABORTED', `${name}: the peer aborted the association (A-ABORT)`);
    network?.socket?.destroy();
  });
  return { client, association: () => network?.association, finished };
}

/** C-ECHO: resolves with the response status; throws {@link DimseError} when no association could be made. */
export async function cEcho(peer: DimsePeer): Promise<CEchoResult> {
  const lib = configureDimse();
  const started = performance.now();
  const client = new lib.Client();
  const request = new lib.requests.CEchoRequest();
  let status: number | undefined;
  request.on('response', (response: { getStatus(): number }) => {
    status = response.getStatus();
  });
  client.addRequest(request);
  const connection = connect(client, peer, peer.timeoutMs ?? 30_000);
  const { interrupted } = await connection.finished;
  if (status === undefined) {
    const context = connection
      .association()
      ?.getPresentationContexts()
      .find(({ context: pc }) => pc.getAbstractSyntaxUid() === VERIFICATION_SOP_CLASS);
    if (context && context.context.getResult() !== 0)
      throw new DimseError(
        'NO_PRESENTATION_CONTEXT',
        `${peerName(peer)}: Verification SOP class not accepted`,
      );
    throw interrupted ?? new DimseError('ABORTED', `${peerName(peer)}: no C-ECHO response`);
  }
  return { status, elapsedMs: performance.now() - started };
}

/** dcmjs-dimse's Dataset whose encoded form is the file's own data set bytes, read when sent. */
class StoredDataset extends dimse.Dataset {
  constructor(private readonly header: StoreFileHeader) {
    super(
      { SOPClassUID: header.sopClassUid, SOPInstanceUID: header.sopInstanceUid },
      header.transferSyntaxUid,
    );
  }

  override getDenaturalizedDataset(): Buffer {
    const bytes = readFileSync(this.header.filePath).subarray(this.header.datasetStart);
    // PS3.5 §A.5: a deflated stream of odd length is padded with one null byte (PDVs are even).
    return bytes.length % 2 === 1 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes;
  }

  /** Never re-encode these bytes as if they were parsed elements. */
  override getElements(): Record<string, unknown> {
    throw new Error('The stored data set is sent as it is and cannot be transcoded');
  }
}

/**
 * C-STORE of files over one association: presentation contexts for each SOP class in each file's
 * own transfer syntax, plus explicit/implicit VR little endian as fallback. Per-file results never
 * throw; a rejected, refused or timed-out association throws {@link DimseError}.
 */
export async function cStore(options: CStoreOptions): Promise<CStoreOutcome> {
  const lib = configureDimse();
  const started = performance.now();
  const { CStoreRequest } = lib.requests;
  const { PresentationContext } = lib.association;

  const results: CStoreInstanceResult[] = [];
  const headers: (StoreFileHeader | undefined)[] = [];
  for await (const filePath of options.files) {
    try {
      headers.push(await readStoreFileHeader(filePath));
      results.push({ filePath, sopInstanceUid: '', status: 'FAILED', error: 'Not sent' });
    } catch (error) {
      headers.push(undefined);
      results.push({
        filePath,
        sopInstanceUid: '',
        status: 'FAILED',
        error: `Not readable as DICOM: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const total = results.length;
  let done = 0;
  const settled = new Set<number>();
  const finish = (index: number, result: CStoreInstanceResult) => {
    if (settled.has(index)) return;
    settled.add(index);
    results[index] = result;
    done++;
    options.onProgress?.({ done, total, result });
  };
  for (const [index, result] of results.entries()) if (!headers[index]) finish(index, result);
  const sendable = headers.flatMap((header, index) => (header ? [{ header, index }] : []));
  if (sendable.length === 0) return summarize(results, started);

  const state: { association?: () => Association | undefined } = {};

  class StoredFileRequest extends CStoreRequest {
    sentSyntax: string;
    reencoded = false;
    constructor(readonly header: StoreFileHeader) {
      super(new StoredDataset(header));
      this.sentSyntax = header.transferSyntaxUid;
    }

    /** Called by dcmjs-dimse just before sending: keep the stored bytes unless the peer wants another syntax. */
    loadFullDatasetIfNeeded(): void {
      const context = state.association?.()?.getAcceptedPresentationContextFromRequest(this);
      const accepted = context?.getAcceptedTransferSyntaxUid();
      if (!accepted) return;
      // An odd-length data set (a non-conformant odd value at its end) cannot go in even PDVs as it
      // is: dcmjs re-encodes it (padding the value). Deflated streams are padded instead.
      const isOdd = this.header.datasetLength % 2 === 1 && !getTransferSyntax(accepted)?.isDeflated;
      if (accepted === this.header.transferSyntaxUid && !isOdd) return;
      this.sentSyntax = accepted;
      this.reencoded = true;
      try {
        const dataset = lib.Dataset.fromFile(this.header.filePath);
        if (dataset) this.setDataset(dataset);
      } catch {
        // The StoredDataset stays: transcoding it fails and the request ends without a response.
      }
    }
  }

  const client = new lib.Client();
  const pairs = new Map<string, { sopClassUid: string; transferSyntaxUid: string }>();
  const sopClasses = new Set<string>();
  for (const { header } of sendable) {
    sopClasses.add(header.sopClassUid);
    pairs.set(`${header.sopClassUid}|${header.transferSyntaxUid}`, header);
  }
  if (sopClasses.size + pairs.size > MAX_PRESENTATION_CONTEXTS)
    throw new DimseError(
      'NO_PRESENTATION_CONTEXT',
      `${sopClasses.size + pairs.size} presentation contexts needed, at most ${MAX_PRESENTATION_CONTEXTS} per association`,
    );
  // Each file's own syntax in a context of its own, so the peer can accept exactly that syntax
  // (dcmjs-dimse adds those itself for syntaxes other than explicit/implicit VR little endian).
  for (const { sopClassUid, transferSyntaxUid } of pairs.values()) {
    if (!UNCOMPRESSED_LE.has(transferSyntaxUid)) continue;
    client.addAdditionalPresentationContext(new PresentationContext(0, sopClassUid, transferSyntaxUid), true);
  }
  // dcmjs-dimse adds one context per SOP class with implicit + explicit VR little endian (the fallback).
  const requests = sendable.map(({ header, index }) => {
    const request = new StoredFileRequest(header);
    let response: { status: number; comment?: string } | undefined;
    request.on('response', (r: { getStatus(): number; getErrorComment(): string }) => {
      response = { status: r.getStatus(), comment: r.getErrorComment() || undefined };
    });
    request.on('done', () => {
      const base = {
        filePath: header.filePath,
        sopInstanceUid: header.sopInstanceUid,
        transferSyntaxUid: request.sentSyntax,
        ...(request.reencoded ? { reencoded: true } : {}),
      };
      if (!response) {
        finish(index, {
          ...base,
          status: 'FAILED',
          error: `Not sent in ${request.sentSyntax}: no usable transfer syntax`,
        });
        return;
      }
      const ok = isStoredStatus(response.status);
      finish(index, {
        ...base,
        status: ok ? 'SEND' : 'FAILED',
        dimseStatus: response.status,
        ...(ok
          ? {}
          : {
              error: `C-STORE status 0x${response.status.toString(16).padStart(4, '0')}${response.comment ? `: ${response.comment}` : ''}`,
            }),
      });
    });
    client.addRequest(request);
    return { request, index, header };
  });

  const connection = connect(client, options, options.timeoutMs ?? 120_000);
  state.association = connection.association;
  const { interrupted } = await connection.finished;
  for (const { index, header, request } of requests) {
    if (!settled.has(index)) {
      const accepted = connection.association()?.getAcceptedPresentationContextFromRequest(request);
      finish(index, {
        filePath: header.filePath,
        sopInstanceUid: header.sopInstanceUid,
        status: 'FAILED',
        error: interrupted
          ? `Not sent: ${interrupted.message}`
          : accepted
            ? 'Not sent'
            : `Not sent: the peer accepted no presentation context for SOP class ${header.sopClassUid}`,
      });
    }
  }
  return summarize(results, started, interrupted);
}

function summarize(
  results: CStoreInstanceResult[],
  started: number,
  interrupted?: DimseError,
): CStoreOutcome {
  const sent = results.filter((r) => r.status === 'SEND').length;
  return {
    results,
    sent,
    failed: results.length - sent,
    elapsedMs: performance.now() - started,
    ...(interrupted ? { interrupted } : {}),
  };
}

export { DimseStatus };
