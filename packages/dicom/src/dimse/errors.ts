import { describeAssociationReject } from './constants.js';

export type DimseErrorCode =
  /** The peer answered A-ASSOCIATE-RJ (see `reject`). */
  | 'ASSOCIATION_REJECTED'
  /** Nothing listens at host:port (ECONNREFUSED), or the host cannot be reached. */
  | 'CONNECTION_REFUSED'
  /** Connecting, the association or a response took longer than the timeout. */
  | 'TIMEOUT'
  /** The peer aborted (A-ABORT) or closed the connection mid-association. */
  | 'ABORTED'
  /** The association was accepted but none of the needed presentation contexts was. */
  | 'NO_PRESENTATION_CONTEXT'
  /** Any other network or protocol failure. */
  | 'NETWORK';

export interface AssociationRejectDetails {
  readonly result: number;
  readonly source: number;
  readonly reason: number;
}

/** A DIMSE operation that could not run at all (as opposed to a per-instance failure status). */
export class DimseError extends Error {
  override readonly name = 'DimseError';

  constructor(
    readonly code: DimseErrorCode,
    message: string,
    readonly reject?: AssociationRejectDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static rejected(details: AssociationRejectDetails, peer: string): DimseError {
    return new DimseError(
      'ASSOCIATION_REJECTED',
      `${peer}: ${describeAssociationReject(details.result, details.source, details.reason)}`,
      details,
    );
  }
}

export function isDimseError(error: unknown): error is DimseError {
  return error instanceof DimseError;
}

/** Maps a socket error (or dcmjs-dimse's wrapped one) to a {@link DimseError}. */
export function toDimseError(error: unknown, peer: string): DimseError {
  if (error instanceof DimseError) return error;
  const err = error instanceof Error ? error : new Error(String(error));
  const code = (err as NodeJS.ErrnoException).code;
  const text = `${code ?? ''} ${err.message}`;
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN/.test(text))
    return new DimseError('CONNECTION_REFUSED', `${peer}: connection refused (${err.message})`, undefined, {
      cause: err,
    });
  if (/timeout|ETIMEDOUT/i.test(text))
    return new DimseError('TIMEOUT', `${peer}: ${err.message}`, undefined, { cause: err });
  if (/ECONNRESET|EPIPE/.test(text))
    return new DimseError('ABORTED', `${peer}: connection reset (${err.message})`, undefined, { cause: err });
  return new DimseError('NETWORK', `${peer}: ${err.message}`, undefined, { cause: err });
}
