/** DIMSE status codes (PS3.7 Annex C) and A-ASSOCIATE-RJ values (PS3.8 §9.3.4) that Radflow uses. */

export const DimseStatus = {
  Success: 0x0000,
  /** C-STORE: Warning, coercion of data elements (PS3.4 Table B.2-1). */
  WarningCoercion: 0xb000,
  /** C-STORE: Refused, out of resources. */
  OutOfResources: 0xa700,
  /** C-STORE: Error, data set does not match SOP class. */
  DataSetDoesNotMatchSopClass: 0xa900,
  /** C-STORE: Error, cannot understand. */
  CannotUnderstand: 0xc000,
  /** General failure: processing failure (PS3.7 C.5.1). */
  ProcessingFailure: 0x0110,
  /** Refused: SOP class not supported (PS3.7 C.5.5). */
  SopClassNotSupported: 0x0122,
  /** Refused: not authorized (PS3.7 C.5.24). */
  NotAuthorized: 0x0124,
} as const;

/** Whether a C-STORE response status means the instance was stored (success or a warning). */
export function isStoredStatus(status: number): boolean {
  return status === 0x0000 || (status & 0xf000) === 0xb000 || status === 0x0107 || status === 0x0116;
}

/** A-ASSOCIATE-RJ result (PS3.8 Table 9-21). */
export const RejectResult = { Permanent: 1, Transient: 2 } as const;
/** A-ASSOCIATE-RJ source. */
export const RejectSource = {
  ServiceUser: 1,
  ServiceProviderAcse: 2,
  ServiceProviderPresentation: 3,
} as const;
/** A-ASSOCIATE-RJ reason/diag. for source 1 (service user) and source 3 (presentation). */
export const RejectReason = {
  NoReasonGiven: 1,
  ApplicationContextNotSupported: 2,
  CallingAeNotRecognized: 3,
  CalledAeNotRecognized: 7,
  /** Source 3: temporary congestion. */
  TemporaryCongestion: 1,
  /** Source 3: local limit exceeded. */
  LocalLimitExceeded: 2,
} as const;

export const VERIFICATION_SOP_CLASS = '1.2.840.10008.1.1';

/** Describes an A-ASSOCIATE-RJ for people. */
export function describeAssociationReject(result: number, source: number, reason: number): string {
  const kind = result === RejectResult.Transient ? 'transient' : 'permanent';
  let why = `reason ${reason}`;
  if (source === RejectSource.ServiceUser) {
    why =
      reason === RejectReason.CallingAeNotRecognized
        ? 'calling AE title not recognized'
        : reason === RejectReason.CalledAeNotRecognized
          ? 'called AE title not recognized'
          : reason === RejectReason.ApplicationContextNotSupported
            ? 'application context not supported'
            : 'no reason given';
  } else if (source === RejectSource.ServiceProviderAcse) {
    why = reason === 2 ? 'protocol version not supported' : 'no reason given';
  } else if (source === RejectSource.ServiceProviderPresentation) {
    why = reason === 1 ? 'temporary congestion' : reason === 2 ? 'local limit exceeded' : 'no reason given';
  }
  return `association rejected (${kind}): ${why}`;
}
