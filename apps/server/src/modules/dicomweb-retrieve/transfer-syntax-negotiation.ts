import { TRANSFER_SYNTAX, describeTransferSyntax, isKnownUncompressedSyntax } from '@radflow/dicom';
import type { TMediaRange } from './multipart.js';

/** An error answered with its HTTP status by the one error handler (its 4xx `statusCode` branch). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notAcceptable = (message: string) => new HttpError(406, message);

/** PS3.18 Table 8.7.3-2 (and 8.7.4-1): the media type of compressed frames in each syntax. */
export function frameMediaType(transferSyntaxUid: string): string {
  const uid = transferSyntaxUid;
  if (['.50', '.51', '.57', '.70'].some((s) => uid === `1.2.840.10008.1.2.4${s}`)) return 'image/jpeg';
  if (uid === TRANSFER_SYNTAX.jpegLsLossless || uid === TRANSFER_SYNTAX.jpegLsNearLossless)
    return 'image/jls';
  if (uid === TRANSFER_SYNTAX.jpeg2000Lossless || uid === TRANSFER_SYNTAX.jpeg2000) return 'image/jp2';
  if (uid === '1.2.840.10008.1.2.4.92' || uid === '1.2.840.10008.1.2.4.93') return 'image/jpx';
  if (/^1\.2\.840\.10008\.1\.2\.4\.20[123]$/.test(uid)) return 'image/jphc';
  if (uid === TRANSFER_SYNTAX.rleLossless) return 'image/dicom-rle';
  if (/^1\.2\.840\.10008\.1\.2\.4\.10[01]/.test(uid)) return 'video/mpeg';
  if (/^1\.2\.840\.10008\.1\.2\.4\.10[2-6]/.test(uid)) return 'video/mp4';
  if (/^1\.2\.840\.10008\.1\.2\.4\.10[78]/.test(uid)) return 'video/H265';
  return 'application/octet-stream';
}

/** How frames of an instance are sent: the part media type, the syntax label, and a byte swap. */
export interface TFrameEncoding {
  partType: string;
  transferSyntaxUid: string;
  /** Big-endian 16-bit native pixels sent as little endian. */
  swap16: boolean;
}

const isAnyType = (type: string) => type === '*/*' || type === 'multipart/*';

/**
 * Chooses how to send frames of an instance stored in `storedSyntax` for an Accept header
 * (PS3.18 §8.7.3.5, §10.4.1.1.4), or throws 406. Frames go in the stored syntax; the only
 * conversions are the free ones: native little-endian frames are the same bytes whatever the VR
 * encoding was (labelled Explicit VR Little Endian), and big-endian 16-bit pixels are byte-swapped.
 * A range without a transfer-syntax parameter is answered in the stored syntax (OHIF and
 * dicomweb-client send `transfer-syntax=*`; a strict default of Explicit VR Little Endian would
 * force a decode the server does not do).
 */
export function chooseFrameEncoding(
  storedSyntax: string,
  bitsAllocated: number | null,
  accept: readonly TMediaRange[],
): TFrameEncoding {
  const isNative = isKnownUncompressedSyntax(storedSyntax) || describeTransferSyntax(storedSyntax).isDeflated;
  const isBigEndian = storedSyntax === TRANSFER_SYNTAX.explicitVrBigEndian;
  const canSwap = isBigEndian && bitsAllocated === 16;
  const natural = isNative && !isBigEndian ? TRANSFER_SYNTAX.explicitVrLittleEndian : storedSyntax;
  const defaultEncoding: TFrameEncoding = {
    partType: 'application/octet-stream',
    transferSyntaxUid: canSwap ? TRANSFER_SYNTAX.explicitVrLittleEndian : natural,
    swap16: canSwap,
  };
  const compressedType = isNative ? null : frameMediaType(storedSyntax);

  for (const range of accept) {
    if (isAnyType(range.type) || (range.type === 'multipart/related' && !range.params.type)) {
      return defaultEncoding;
    }
    if (range.type !== 'multipart/related') continue;
    const partType = (range.params.type ?? '').toLowerCase();
    const wanted = range.params['transfer-syntax'];
    const isOctet = partType === 'application/octet-stream' || partType === '*/*';
    if (!isOctet && partType !== compressedType) continue;
    const part = isOctet ? 'application/octet-stream' : partType;
    if (!wanted || wanted === '*') return { ...defaultEncoding, partType: part };
    if (
      isNative &&
      !isBigEndian &&
      (wanted === TRANSFER_SYNTAX.explicitVrLittleEndian || wanted === storedSyntax)
    ) {
      return { partType: part, transferSyntaxUid: TRANSFER_SYNTAX.explicitVrLittleEndian, swap16: false };
    }
    if (isBigEndian && wanted === storedSyntax)
      return { partType: part, transferSyntaxUid: wanted, swap16: false };
    if (canSwap && wanted === TRANSFER_SYNTAX.explicitVrLittleEndian)
      return { ...defaultEncoding, partType: part };
    if (!isNative && wanted === storedSyntax)
      return { partType: part, transferSyntaxUid: wanted, swap16: false };
  }
  throw notAcceptable(
    `The frames are available as ${compressedType ?? 'application/octet-stream'} in transfer syntax ` +
      `${defaultEncoding.transferSyntaxUid} (${describeTransferSyntax(defaultEncoding.transferSyntaxUid).name}); ` +
      'the server does not transcode: ask for transfer-syntax=* or that syntax',
  );
}

/**
 * Whether a study/series/instance retrieve may answer the stored files for this Accept header
 * (PS3.18 §10.4.1.1.1): `multipart/related; type="application/dicom"` with no transfer-syntax,
 * `*`, or the syntax every file is already in.
 */
export function checkInstancesAccept(
  storedSyntaxes: ReadonlySet<string>,
  accept: readonly TMediaRange[],
): void {
  for (const range of accept) {
    if (isAnyType(range.type)) return;
    if (range.type !== 'multipart/related') continue;
    const partType = range.params.type?.toLowerCase();
    if (partType && partType !== 'application/dicom' && partType !== '*/*') continue;
    const wanted = range.params['transfer-syntax'];
    if (!wanted || wanted === '*') return;
    if ([...storedSyntaxes].every((uid) => uid === wanted)) return;
  }
  throw notAcceptable(
    `The instances are stored in ${[...storedSyntaxes].join(', ')} and the server does not transcode: ` +
      'ask for multipart/related; type="application/dicom"; transfer-syntax=*',
  );
}
