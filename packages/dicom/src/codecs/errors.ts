/** Why a frame could not be decoded: a syntax or sample layout we have no codec for, or bad data. */
export type FrameDecodeErrorCode = 'UNSUPPORTED' | 'CORRUPT_FRAME';

export class FrameDecodeError extends Error {
  constructor(
    readonly code: FrameDecodeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FrameDecodeError';
  }
}
