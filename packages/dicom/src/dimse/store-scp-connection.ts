/**
 * One connection of the SCP (store-scp.ts): a dcmjs-dimse Scp whose receive path is ours
 * (store-scp-fast-path.ts), with the association timers, C-STORE, C-ECHO and C-FIND answers.
 */
import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { association as Assoc, requests, responses } from 'dcmjs-dimse';
import { createFileMetaHeader } from '../file-meta.js';
import { TRANSFER_SYNTAX } from '../transfer-syntax.js';
import { DimseStatus } from './constants.js';
import { acceptedContextOf, answerFind, immediateSenderOf } from './find-scp.js';
import type { dimse as Dimse } from './library.js';
import { C_STORE_RQ, type CommandSet, cStoreResponsePdu } from './pdata-receive.js';
import type { StoreScpOptions } from './store-scp-types.js';
import {
  type AssociationDecision,
  acceptWithOwnMaxPdu,
  decideAssociation,
  negotiateContext,
  rejectionOf,
} from './store-scp-association.js';
import { takeOverReceive } from './store-scp-fast-path.js';
import { storeOutcome, toErrorComment } from './store-scp-responses.js';
import { type Incoming, ReceiveSink } from './store-scp-sink.js';

type Association = Assoc.Association;
type PresentationContext = Assoc.PresentationContext;
type CStoreRequest = requests.CStoreRequest;
type CEchoRequest = requests.CEchoRequest;
type CFindRequest = requests.CFindRequest;
type CCancelRequest = requests.CCancelRequest;
type CFindResponse = responses.CFindResponse;
type CStoreResponse = responses.CStoreResponse;
type CEchoResponse = responses.CEchoResponse;

/** Instances received by each path, since the SCP started (StoreScp.receivedBy). */
export interface ReceivePathCounts {
  /** Data sets read by our receive path (store-scp-fast-path.ts). */
  fastPath: number;
  /** Data sets dcmjs-dimse read itself: a C-STORE our path left to it (unknown or refused context). */
  library: number;
}

/** What every connection of one SCP shares: its settings and its running work. */
export interface ConnectionEnv {
  readonly dimse: typeof Dimse;
  readonly options: StoreScpOptions;
  readonly tempDir: string;
  readonly artimMs: number;
  readonly idleTimeoutMs: number;
  readonly inMemoryMaxBytes: number;
  readonly inMemoryWithoutFile: boolean;
  readonly sha256WhileReceiving: boolean | (() => boolean);
  readonly maxReceivePduLength: number;
  /** C-STOREs and C-FINDs being answered, over all connections (close waits for them). */
  readonly pendingStores: Set<Promise<void>>;
  readonly receivedBy: ReceivePathCounts;
}

/** What the port makes of each accepted socket (a class: dcmjs-dimse's Scp is one). */
export type ConnectionClass = new (
  socket: Socket,
  opts: ConstructorParameters<ConnectionEnv['dimse']['Scp']>[1],
) => object;

/** The connection class of one SCP: dcmjs-dimse's Scp with our receive path and answers. */
export function connectionClass(env: ConnectionEnv): ConnectionClass {
  const { dimse, options, pendingStores, artimMs, idleTimeoutMs } = env;
  const { Scp, Dataset } = dimse;
  const { CEchoResponse, CStoreResponse, CFindResponse } = dimse.responses;
  const { PresentationContextResult } = dimse.constants;
  const log = options.logger;
  const policy = { ...options, findSopClassUids: options.find?.sopClassUids };

  return class RadflowStoreScp extends Scp {
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
    /** The C-STORE whose data set the fast path is reading. */
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
      takeOverReceive(this, socket, {
        command: (pcid, command) => this.fastPathCommand(pcid, command),
        storeData: (chunk) => this.receiving?.incoming.sink.write(chunk),
        storeEnd: () => this.fastPathStoreEnd(),
        pduArrived: () => this.pduArrived(),
        failure: (error) => this.networkFailure(error),
      });
      this.startTimer('artim');
    }

    // ------------------------------------------------------------------ timers (PS3.8 §9.1.5)

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

    /** An answer went out: the idle time counts from now. */
    private answered(): void {
      this.answering--;
      this.timer?.refresh();
    }

    // ------------------------------------------------------------------ association

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

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
    }

    private async answerAssociation(association: Association): Promise<void> {
      this.callingAet = association.getCallingAeTitle().trim();
      this.calledAet = association.getCalledAeTitle().trim();
      const decision: AssociationDecision = await decideAssociation(
        policy,
        { callingAet: this.callingAet, calledAet: this.calledAet, remoteAddress: this.remoteAddress },
        log,
      );
      if (this.connection.destroyed) return;
      if (decision !== true && decision !== 'accept') {
        log?.info?.(
          {
            callingAet: this.callingAet,
            calledAet: this.calledAet,
            remoteAddress: this.remoteAddress,
            decision,
          },
          'DIMSE association rejected',
        );
        this.sendAssociationReject(...rejectionOf(decision));
        return;
      }
      this.association = association;
      for (const { id } of association.getPresentationContexts()) {
        negotiateContext(dimse, policy, association.getPresentationContext(id));
      }
      acceptWithOwnMaxPdu(dimse, association, env.maxReceivePduLength, () => this.sendAssociationAccept());
    }

    // ------------------------------------------------------------------ C-STORE, fast path

    /** A C-STORE-RQ on an accepted context is received here; anything else goes to dcmjs-dimse. */
    private fastPathCommand(pcid: number, command: CommandSet): 'store' | 'forward' {
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

    private fastPathStoreEnd(): void {
      const receiving = this.receiving;
      this.receiving = undefined;
      if (!receiving) return;
      const { incoming, pcid, command } = receiving;
      incoming.receivedAt = performance.now();
      incoming.sink.end();
      env.receivedBy.fastPath++;
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
      this.track(work);
    }

    // ------------------------------------------------------------------ C-STORE, left to dcmjs-dimse

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
      env.receivedBy.library++;
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
      this.track(work);
    }

    // ------------------------------------------------------------------ C-STORE, both paths

    private beginIncoming(
      context: PresentationContext,
      sopClassUid: string,
      sopInstanceUid: string,
    ): Incoming {
      const transferSyntaxUid =
        context.getAcceptedTransferSyntaxUid() ?? TRANSFER_SYNTAX.implicitVrLittleEndian;
      const path = join(env.tempDir, `${randomUUID()}.dcm.part`);
      const header = createFileMetaHeader({
        sopClassUid,
        sopInstanceUid,
        transferSyntaxUid,
        sourceAeTitle: this.callingAet,
      });
      const partial: Omit<Incoming, 'sink'> = { path, transferSyntaxUid, size: 0 };
      const hashing = env.sha256WhileReceiving;
      const sink = new ReceiveSink(
        partial,
        header,
        this.connection,
        env.inMemoryMaxBytes,
        env.inMemoryWithoutFile,
        options.allocateBytes,
        typeof hashing === 'function' ? hashing() : hashing,
      );
      const incoming = Object.assign(partial, { sink }) as Incoming;
      this.unfinished.add(incoming);
      return incoming;
    }

    private async store(
      incoming: Incoming | undefined,
      sopClassUid: string,
      sopInstanceUid: string,
      respond: (outcome: { status: number; errorComment?: string }) => void,
    ): Promise<void> {
      const outcome = await storeOutcome(
        incoming,
        { sopClassUid, sopInstanceUid },
        {
          callingAet: this.callingAet,
          calledAet: this.calledAet,
          remoteAddress: this.remoteAddress,
          associationId: this.associationId,
        },
        options.onInstance,
        log,
        () => incoming && this.unfinished.delete(incoming),
      );
      if (this.connection.destroyed) return;
      respond(outcome);
    }

    /** Work of this association being answered: close waits for it, the idle timer counts from its end. */
    private track(work: Promise<void>): void {
      pendingStores.add(work);
      void work.finally(() => {
        pendingStores.delete(work);
        this.answered();
      });
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

    override abort(): void {
      this.connection.destroy();
    }

    // ------------------------------------------------------------------ C-ECHO, C-FIND

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
        {
          socket: this.connection,
          sendNow: immediateSenderOf(this, context),
          raw: {
            pcid: context.getPresentationContextId(),
            // The peer's maximum (store-scp-association.ts puts it back after our AC went out).
            maxPduLength: this.association?.getMaxPduLength() ?? 0,
            write: (bytes) => this.connection.write(bytes),
          },
        },
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
  };
}
