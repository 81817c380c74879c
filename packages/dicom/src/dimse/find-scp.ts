/**
 * The C-FIND side of the SCP (PS3.4 Annex C, PS3.7 §9.1.2): identifiers in and matches out as
 * PS3.18 JSON data sets, so the caller works with the same shape as QIDO-RS; pending responses go
 * out as they are produced and a C-CANCEL stops them (final status Cancel).
 */
import dcmjs, { type DcmjsDenaturalizedDataset } from 'dcmjs';
import type { association as Assoc, requests, responses } from 'dcmjs-dimse';
import type { DicomJsonDataset } from '../dicom-json.js';
import { fitDatasetToVrs } from '../vr-limits.js';
import { DimseStatus } from './constants.js';
import { cFindPendingResponse, encodeFindIdentifier } from './find-responses.js';
import type { dimse as DimseLibrary } from './library.js';

type CFindRequest = requests.CFindRequest;
type CFindResponse = responses.CFindResponse;
type PresentationContext = Assoc.PresentationContext;
type Association = Assoc.Association;

export const QUERY_RETRIEVE_FIND = {
  patientRoot: '1.2.840.10008.5.1.4.1.2.1.1',
  studyRoot: '1.2.840.10008.5.1.4.1.2.2.1',
} as const;

/** C-FIND statuses (PS3.4 Table C.4-1) beyond the common ones. */
export const FindStatus = {
  Pending: 0xff00,
  Cancel: 0xfe00,
  /** Failed: identifier does not match SOP class. */
  IdentifierDoesNotMatch: 0xa900,
  /** Failed: unable to process. */
  UnableToProcess: 0xc000,
  /** Refused: out of resources. */
  OutOfResources: 0xa700,
} as const;

/** One C-FIND request as the handler sees it. */
export interface FindQuery {
  readonly sopClassUid: string;
  /** The identifier as PS3.18 JSON (tag → {vr, Value}); a key with no value is a return key. */
  readonly identifier: DicomJsonDataset;
  readonly callingAet: string;
  readonly calledAet: string;
  readonly associationId: string;
}

/** The handler's answer: the matches (each one pending response), or a failure status. */
export type FindAnswer =
  | { readonly matches: readonly DicomJsonDataset[]; readonly status?: undefined }
  | { readonly status: number; readonly errorComment?: string };

export interface FindScpOptions {
  /** Information models answered (e.g. {@link QUERY_RETRIEVE_FIND}); others stay refused. */
  readonly sopClassUids: readonly string[];
  /** Runs the query; `signal` aborts on C-CANCEL or a dropped connection. */
  onFind(query: FindQuery, signal: AbortSignal): Promise<FindAnswer>;
}

type Dimse = typeof DimseLibrary;

dcmjs.log.setLevel('silent');
const { naturalizeDataset, denaturalizeDataset } = dcmjs.data.DicomMetaDictionary;

/** dcmjs-dimse's naturalized identifier → PS3.18 JSON; keys without a value stay as return keys. */
export function identifierToJson(elements: Record<string, unknown>): DicomJsonDataset {
  const { _vrMap: _ignored, ...rest } = elements;
  const json: DicomJsonDataset = {};
  for (const [tag, element] of Object.entries(denaturalizeDataset(rest))) {
    const values = (element.Value ?? []).filter((v) => v !== null && v !== undefined && v !== '');
    json[tag] =
      values.length > 0
        ? ({ vr: element.vr, Value: values } as DicomJsonDataset[string])
        : { vr: element.vr };
  }
  return json;
}

/** PS3.18 JSON → what dcmjs-dimse's Dataset takes; an element without value is sent empty. */
export function jsonToElements(json: DicomJsonDataset): Record<string, unknown> {
  const natural = naturalizeDataset(json as unknown as DcmjsDenaturalizedDataset);
  for (const [key, value] of Object.entries(natural))
    if (value === null || value === undefined) natural[key] = '';
  return natural;
}

/** The accepted presentation context of an abstract syntax in a negotiated association. */
export function acceptedContextOf(
  association: Association,
  abstractSyntaxUid: string,
  acceptResult: number,
): PresentationContext | undefined {
  for (const { id } of association.getPresentationContexts()) {
    const context = association.getPresentationContext(id);
    if (context.getAbstractSyntaxUid() === abstractSyntaxUid && context.getResult() === acceptResult)
      return context;
  }
  return undefined;
}

/**
 * dcmjs-dimse sends all responses of a C-FIND from one callback, so a long answer would be built
 * whole before the first byte leaves and a C-CANCEL could never interrupt it; its internal
 * `_sendDimse` sends one now. Without it (another library version) everything goes at the end.
 */
export function immediateSenderOf(
  scp: object,
  context: PresentationContext,
): ((response: CFindResponse) => void) | undefined {
  const send = (
    scp as { _sendDimse?: (dimse: { context: PresentationContext; command: CFindResponse }) => void }
  )._sendDimse;
  return typeof send === 'function'
    ? (response) => send.call(scp, { context, command: response })
    : undefined;
}

/** The transport of one association that the find answerer needs from the Scp subclass. */
export interface FindTransport {
  readonly socket: {
    destroyed: boolean;
    writableNeedDrain: boolean;
    once(event: 'drain' | 'close', fn: () => void): unknown;
  };
  /** Sends one response now; undefined when dcmjs-dimse offers no way (then all go in the final callback). */
  readonly sendNow?: (response: CFindResponse) => void;
  /**
   * Writes pending responses we encoded ourselves (find-responses.ts) on the association's socket:
   * its presentation context and the peer's maximum PDU length. Absent: dcmjs-dimse encodes them.
   */
  readonly raw?: { readonly pcid: number; readonly maxPduLength: number; write(bytes: Buffer): void };
}

/** Pending responses written in a row before the event loop gets a turn (HTTP, a C-CANCEL). */
const RAW_RESPONSES_PER_TURN = 32;

/**
 * Answers one C-FIND: asks the handler, streams the matches as pending responses (one per turn of
 * the event loop, waiting for drain), then the final response through `callback`.
 */
export async function answerFind(
  library: Dimse,
  handler: FindScpOptions,
  incoming: Omit<FindQuery, 'identifier'> & { identifierElements: Record<string, unknown> },
  request: CFindRequest,
  context: PresentationContext | undefined,
  transport: FindTransport,
  signal: AbortSignal,
  callback: (responses: CFindResponse[]) => void,
): Promise<void> {
  const { CFindResponse: Response } = library.responses;
  const syntax = context?.getAcceptedTransferSyntaxUid();
  const final = (status: number, errorComment?: string) => {
    const response = Response.fromRequest(request);
    response.setStatus(status);
    // Error Comment is LO: at most 64 characters, no backslash or control characters.
    // eslint-disable-next-line no-control-regex
    if (errorComment) response.setErrorComment(errorComment.replace(/[\\\u0000-\u001f]/g, ' ').slice(0, 64));
    return response;
  };
  let answer: FindAnswer;
  try {
    const { identifierElements, ...rest } = incoming;
    // Inside the try: an identifier dcmjs cannot turn back into tags fails this C-FIND only.
    answer = await handler.onFind({ ...rest, identifier: identifierToJson(identifierElements) }, signal);
  } catch (error) {
    answer = {
      status: DimseStatus.ProcessingFailure,
      errorComment: error instanceof Error ? error.message : String(error),
    };
  }
  if (transport.socket.destroyed) return;
  if (signal.aborted) return callback([final(FindStatus.Cancel)]);
  if (answer.status !== undefined) return callback([final(answer.status, answer.errorComment)]);

  const held: CFindResponse[] = [];
  let rawInARow = 0;
  for (const match of answer.matches) {
    const fitted = fitDatasetToVrs(match);
    const identifier = transport.raw && held.length === 0 ? encodeFindIdentifier(fitted, syntax) : null;
    if (transport.raw && identifier) {
      transport.raw.write(
        cFindPendingResponse(
          transport.raw.pcid,
          { messageId: request.getMessageId(), affectedSopClassUid: incoming.sopClassUid },
          FindStatus.Pending,
          identifier,
          transport.raw.maxPduLength,
        ),
      );
      if (++rawInARow < RAW_RESPONSES_PER_TURN && !transport.socket.writableNeedDrain) continue;
      rawInARow = 0;
      await waitForSocket(transport.socket);
      if (transport.socket.destroyed) return;
      if (signal.aborted) return callback([final(FindStatus.Cancel)]);
      continue;
    }
    const response = Response.fromRequest(request);
    response.setStatus(FindStatus.Pending);
    // Whatever was stored, the answer must encode: over-long values are cut to their VR's maximum.
    response.setDataset(new library.Dataset(jsonToElements(fitted), syntax));
    if (!transport.sendNow) {
      held.push(response);
      continue;
    }
    try {
      transport.sendNow(response);
    } catch (error) {
      // Not expected after the fitting; still, one answer must not abort the association.
      const reason = error instanceof Error ? error.message : String(error);
      return callback([final(FindStatus.UnableToProcess, `Answer not encodable: ${reason}`)]);
    }
    // dcmjs-dimse takes ~5 ms of CPU to encode one response (its write buffers are 256 KB each):
    // a turn of the event loop after each keeps HTTP requests served and lets a C-CANCEL in.
    await waitForSocket(transport.socket);
    if (transport.socket.destroyed) return;
    if (signal.aborted) return callback([final(FindStatus.Cancel)]);
  }
  callback([...held, final(DimseStatus.Success)]);
}

/** Until the socket drained (or now, when nothing is queued) and the event loop read what came in. */
function waitForSocket(socket: FindTransport['socket']): Promise<void> {
  return new Promise((resolve) => {
    if (!socket.writableNeedDrain) {
      setImmediate(resolve);
      return;
    }
    socket.once('drain', () => setImmediate(resolve));
    socket.once('close', () => resolve());
  });
}
