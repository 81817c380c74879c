/**
 * Association handling for the SCP (store-scp.ts): whether to accept an A-ASSOCIATE-RQ, which
 * presentation contexts to accept with which transfer syntax, and the A-ASSOCIATE-AC's Maximum
 * Length.
 */
import type { association as Assoc } from 'dcmjs-dimse';
import { getTransferSyntax, TRANSFER_SYNTAX } from '../transfer-syntax.js';
import { RejectReason, RejectResult, RejectSource, VERIFICATION_SOP_CLASS } from './constants.js';
import type { DimseLogger, dimse as Dimse } from './library.js';

type Association = Assoc.Association;
type PresentationContext = Assoc.PresentationContext;

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

/** What the association handling reads of the SCP's options. */
export interface AssociationPolicy {
  readonly aeTitle: string;
  readonly acceptAnyCalledAet?: boolean;
  readonly onAssociation?: (
    callingAet: string,
    calledAet: string,
    remoteAddress: string,
  ) => AssociationDecision | Promise<AssociationDecision>;
  /** SOP classes answered by C-FIND (find-scp.ts), if any. */
  readonly findSopClassUids?: readonly string[];
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

const UNCOMPRESSED_PREFERENCE: readonly string[] = [
  TRANSFER_SYNTAX.explicitVrLittleEndian,
  TRANSFER_SYNTAX.implicitVrLittleEndian,
  TRANSFER_SYNTAX.explicitVrBigEndian,
];

function isStorageCandidate(sopClassUid: string, serviceClasses: ReadonlySet<string>): boolean {
  if (serviceClasses.has(sopClassUid)) return false;
  return !NON_STORAGE_PREFIXES.some((prefix) => sopClassUid.startsWith(prefix));
}

/** The decision on an A-ASSOCIATE-RQ: the called AE title first, then `onAssociation` (an exception is 'busy'). */
export async function decideAssociation(
  policy: AssociationPolicy,
  peer: { callingAet: string; calledAet: string; remoteAddress: string },
  log: DimseLogger | undefined,
): Promise<AssociationDecision> {
  if (!policy.acceptAnyCalledAet && peer.calledAet !== policy.aeTitle.trim()) return 'reject-called-aet';
  try {
    return policy.onAssociation
      ? await policy.onAssociation(peer.callingAet, peer.calledAet, peer.remoteAddress)
      : true;
  } catch (error) {
    log?.error?.({ err: error, callingAet: peer.callingAet }, 'DIMSE onAssociation failed');
    return 'busy';
  }
}

/** The A-ASSOCIATE-RJ result, source and reason of a refusing decision. */
export function rejectionOf(decision: AssociationDecision): [number, number, number] {
  if (decision === 'reject-called-aet') {
    return [RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CalledAeNotRecognized];
  }
  if (decision === 'busy') {
    return [
      RejectResult.Transient,
      RejectSource.ServiceProviderPresentation,
      RejectReason.TemporaryCongestion,
    ];
  }
  return [RejectResult.Permanent, RejectSource.ServiceUser, RejectReason.CallingAeNotRecognized];
}

/** dcmjs-dimse's service SOP classes, read once. */
let serviceClasses: ReadonlySet<string> | undefined;

/** Verification and C-FIND: an uncompressed syntax; storage: the first proposed syntax we know, as it is. */
export function negotiateContext(
  dimse: typeof Dimse,
  policy: AssociationPolicy,
  context: PresentationContext,
): void {
  const { PresentationContextResult, SopClass } = dimse.constants;
  serviceClasses ??= new Set<string>(Object.values(SopClass) as string[]);
  const abstract = context.getAbstractSyntaxUid();
  const proposed = [...context.getTransferSyntaxUids()];
  if (abstract === VERIFICATION_SOP_CLASS || policy.findSopClassUids?.includes(abstract)) {
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

/**
 * Sends the A-ASSOCIATE-AC with OUR Maximum Length. dcmjs-dimse keeps one Maximum Length per
 * association: it answers min(the peer's, its own) in the A-ASSOCIATE-AC and cuts what it sends to
 * it. The AC is to carry what WE receive (PS3.8 D.1; a storescu offering 16 KB would otherwise send
 * us 16 KB PDUs), what we send must stay within what the peer receives: ours for the AC (written at
 * once), then the peer's.
 */
export function acceptWithOwnMaxPdu(
  dimse: typeof Dimse,
  association: Association,
  maxReceivePduLength: number,
  sendAccept: () => void,
): void {
  const peerMaxPduLength = association.getMaxPduLength();
  association.setMaxPduLength(maxReceivePduLength);
  const libraryMax = dimse.Implementation.getMaxPduLength();
  dimse.Implementation.setMaxPduLength(maxReceivePduLength);
  try {
    sendAccept();
  } finally {
    dimse.Implementation.setMaxPduLength(libraryMax);
    association.setMaxPduLength(peerMaxPduLength);
  }
}
