import {
  DimseStatus,
  type FindScpOptions,
  type StoreOutcome,
  type StoreScp,
  startStoreScp,
} from '@radflow/dicom/dimse';
import type { AppContext } from '../../context.js';
import { acceptBetweenDatabaseTurns } from '../../db/client.js';
import { createAeTitleLookup } from './ae-titles.js';
import { C_FIND_MAX_MATCHES, createFindService } from './c-find.js';
import { MODALITY_WORKLIST_FIND, answerWorklistFind } from '../lab-worklist/modality-worklist.js';
import { type IngestFailureCode, KEPT_FIRST_REASON, hashWhileReceiving, ingestInstance } from './ingest.js';
import { phaseClock } from './ingest-phases.js';
import { SharedBytesPool } from './shared-bytes.js';

/**
 * The C-STORE / C-ECHO / C-FIND SCP (issue 3 §3, ARCHITECTURE §4): the calling AE title picks the center
 * (centers.ae_titles, compared trimmed and case-sensitively); an unknown calling AE is rejected at
 * association; every received instance is ingested as it arrives, its file moved (not copied) from
 * the blob store's temp dir.
 */

export interface DicomServicesConfig {
  DICOM_PORT: number;
  DICOM_AET: string;
  HOST: string;
  /** Matches per C-FIND at most (default `C_FIND_MAX_MATCHES`, 1000). */
  C_FIND_MAX_MATCHES?: number;
  /** The port's limits (config.ts; unset: `DEFAULT_PORT_LIMITS` of the SCP). */
  DICOM_MAX_CONNECTIONS?: number;
  DICOM_MAX_CONNECTIONS_PER_ADDRESS?: number;
  DICOM_ASSOCIATION_REQUEST_TIMEOUT_SECONDS?: number;
  DICOM_IDLE_TIMEOUT_SECONDS?: number;
}

export interface DicomServices {
  port: number;
  /** Instances read by the SCP's own receive path and by dcmjs-dimse's (StoreScp.receivedBy). */
  receivedBy: StoreScp['receivedBy'];
  close(): Promise<void>;
}

interface Logger {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

const STATUS_OF: Record<IngestFailureCode, number> = {
  NOT_DICOM: DimseStatus.CannotUnderstand,
  INVALID: DimseStatus.CannotUnderstand,
  REFUSED: DimseStatus.ProcessingFailure,
  FOREIGN_STUDY: DimseStatus.NotAuthorized,
  STORAGE: DimseStatus.OutOfResources,
};

/**
 * Warning, elements discarded (PS3.4 Table B.2-1): an instance already stored with other bytes
 * keeps its first version (DECISIONS.md "instance ownership"); a warning, not a failure, so the
 * sender does not retry it forever.
 */
const WARNING_KEPT_FIRST = 0xb006;

/** The configured caps and timers; what is unset keeps the SCP's default. */
function portLimitsOf(config: DicomServicesConfig) {
  const seconds = (value: number | undefined) => (value === undefined ? undefined : value * 1000);
  const limits = {
    maxConnections: config.DICOM_MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.DICOM_MAX_CONNECTIONS_PER_ADDRESS,
    associationRequestTimeoutMs: seconds(config.DICOM_ASSOCIATION_REQUEST_TIMEOUT_SECONDS),
    idleTimeoutMs: seconds(config.DICOM_IDLE_TIMEOUT_SECONDS),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as {
    [K in keyof typeof limits]?: number;
  };
}

/**
 * The C-FIND models of the port: the archive's Query/Retrieve (c-find.ts) and the lab's Modality
 * Worklist (lab-worklist/modality-worklist.ts), each negotiated by its SOP class.
 */
function findServices(
  ctx: AppContext,
  centerOf: (aeTitle: string) => Promise<number | null>,
  maxMatches: number,
): FindScpOptions {
  const archive = createFindService(ctx, centerOf, maxMatches);
  return {
    sopClassUids: [...archive.sopClassUids, MODALITY_WORKLIST_FIND],
    onFind: (query, signal) =>
      query.sopClassUid === MODALITY_WORKLIST_FIND
        ? answerWorklistFind(ctx.db, centerOf, query, maxMatches)
        : archive.onFind(query, signal),
  };
}

/** Starts the SCP on DICOM_PORT (0: a free port) with AE title DICOM_AET, listening on HOST. */
export async function startDicomServices(
  ctx: AppContext,
  config: DicomServicesConfig,
  log?: Logger,
): Promise<DicomServices> {
  const centerOf = createAeTitleLookup(ctx);
  /** When each association's last answer went out (RADFLOW_INGEST_PHASES only). */
  const answeredAt = new Map<string, number>();
  // Instances received in memory are assembled in reused shared memory: an ingest worker reads it
  // without a copy (ingest-pool.ts).
  const sharedBytes = new SharedBytesPool();
  const scp: StoreScp = await startStoreScp({
    aeTitle: config.DICOM_AET,
    host: config.HOST,
    port: config.DICOM_PORT,
    tempDir: ctx.blobs.tempDir(),
    // An instance received in memory goes to the store from there: no temp file written and linked.
    inMemoryWithoutFile: ctx.blobs.putBytes !== undefined,
    allocateBytes: (length) => sharedBytes.allocate(length),
    // A lone association's instance is hashed while the next network read is awaited, not after.
    sha256WhileReceiving: () => hashWhileReceiving(ctx),
    ...(log ? { logger: log } : {}),
    ...portLimitsOf(config),
    find: findServices(ctx, centerOf, config.C_FIND_MAX_MATCHES ?? C_FIND_MAX_MATCHES),
    onAssociation: async (callingAet) =>
      (await centerOf(callingAet)) !== null ? 'accept' : 'reject-calling-aet',
    onInstance: async (instance): Promise<StoreOutcome | void> => {
      if (phaseClock && instance.commandAt !== undefined && instance.receivedAt !== undefined) {
        phaseClock.add('receive', instance.receivedAt - instance.commandAt);
        const last = answeredAt.get(instance.associationId);
        if (last !== undefined) phaseClock.add('answerToNextRequest', instance.commandAt - last);
      }
      const centerId = await centerOf(instance.callingAet);
      if (centerId === null)
        return { status: DimseStatus.NotAuthorized, errorComment: 'Unknown calling AE title' };
      const result = await ingestInstance(
        ctx,
        // Bytes alone (received in memory), or the file (moved into the store) with its bytes when kept.
        {
          ...(instance.filePath === undefined
            ? { bytes: instance.bytes }
            : instance.bytes
              ? { filePath: instance.filePath, bytes: instance.bytes }
              : { filePath: instance.filePath }),
          ...(instance.sha256 ? { sha256: instance.sha256 } : {}),
        },
        { centerId, source: 'DIMSE', callingAet: instance.callingAet, acknowledgeDurable: true },
      );
      // Over: the worker answered and the blob write settled. After a storage failure a write
      // may still be under way: that slot is left to the garbage collector.
      if (instance.bytes && (result.ok || result.failureCode !== 'STORAGE'))
        sharedBytes.release(instance.bytes);
      if (phaseClock) {
        answeredAt.set(instance.associationId, performance.now());
        if (answeredAt.size > 1000) answeredAt.clear();
      }
      if (result.ok)
        return result.keptFirst ? { status: WARNING_KEPT_FIRST, errorComment: KEPT_FIRST_REASON } : undefined;
      log?.warn(
        { callingAet: instance.callingAet, sopInstanceUid: instance.sopInstanceUid, reason: result.reason },
        'C-STORE instance refused',
      );
      return { status: STATUS_OF[result.failureCode], errorComment: result.reason };
    },
  });
  // Associations that arrive together are accepted between two PGlite calls, not one per call.
  const stopWatchingAccepts = acceptBetweenDatabaseTurns(ctx.db, scp.server);
  return {
    port: scp.port,
    receivedBy: scp.receivedBy,
    close: () => (stopWatchingAccepts(), scp.close()),
  };
}
