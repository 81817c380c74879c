/**
 * Why an input was refused as a DICOM instance. Each code is stable (stored, logged, mapped to a
 * STOW-RS FailureReason by the server); the message is for people.
 */
export type DicomParseErrorCode =
  /** Zero bytes. */
  | 'EMPTY'
  /** Neither a Part 10 file (PS3.10 §7.1: preamble + "DICM") nor a bare PS3.5 data set. */
  | 'NOT_DICOM'
  /** The File Meta Information group (PS3.10 §7.1) ends before its declared or encoded end. */
  | 'TRUNCATED_FILE_META'
  /** File Meta Information present but without (0002,0010) Transfer Syntax UID (Type 1, PS3.10 §7.1). */
  | 'MISSING_TRANSFER_SYNTAX'
  /** The data set ends inside an element before the pixel data. */
  | 'TRUNCATED_DATASET'
  /** Element encoding that cannot be read (bad lengths, broken sequences). */
  | 'MALFORMED_DATASET'
  /** Deflated Explicit VR Little Endian (PS3.5 §A.5) whose deflate stream is corrupt. */
  | 'DEFLATE_FAILED'
  /** A Type 1 identifying UID (SOP Instance, Study, Series) is absent, so the object cannot be indexed. */
  | 'MISSING_UID'
  /** The Pixel Data value is shorter than its header says (only raised by {@link assertIngestable}). */
  | 'PIXEL_DATA_TRUNCATED'
  /**
   * The data set is in the other VR encoding than its transfer syntax says (implicit VR behind an
   * explicit VR syntax, or the reverse): readable here, not by others (only {@link assertIngestable}).
   */
  | 'TRANSFER_SYNTAX_MISMATCH'
  /** A Study, Series or SOP Instance UID outside the UID grammar, PS3.5 §9.1 (only {@link assertIngestable}). */
  | 'INVALID_UID';

/** A DICOM input that cannot be used, with a machine-readable code and a human-readable reason. */
export class DicomParseError extends Error {
  override readonly name = 'DicomParseError';

  constructor(
    readonly code: DicomParseErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isDicomParseError(error: unknown): error is DicomParseError {
  return error instanceof DicomParseError;
}

export type DicomFrameErrorCode =
  /** The instance has no Pixel Data / Float Pixel Data / Double Float Pixel Data. */
  | 'NO_PIXEL_DATA'
  /** Rows, Columns or Bits Allocated missing, so native frames cannot be cut. */
  | 'MISSING_IMAGE_ATTRIBUTES'
  /** The requested frame is past Number of Frames. */
  | 'FRAME_OUT_OF_RANGE'
  /** The bytes of the frame are not all in the file (truncated pixel data). */
  | 'PIXEL_DATA_INCOMPLETE'
  /** Encapsulated fragments that cannot be assigned to frames (PS3.5 §A.4). */
  | 'UNRESOLVABLE_FRAGMENTS';

/** A frame that cannot be cut out of the pixel data. */
export class DicomFrameError extends Error {
  override readonly name = 'DicomFrameError';

  constructor(
    readonly code: DicomFrameErrorCode,
    message: string,
  ) {
    super(message);
  }
}
