/** Why an update was refused or failed; `message` is what the router screen shows. */
export type TReleaseErrorCode =
  | 'NO_TRUSTED_KEY'
  | 'BAD_SIGNATURE'
  | 'BAD_MANIFEST'
  | 'NOT_NEWER'
  | 'NO_RELEASE'
  | 'DOWNLOAD_FAILED'
  | 'CHECKSUM_MISMATCH'
  | 'BAD_ARTEFACT'
  | 'SELF_TEST_FAILED'
  | 'BUSY';

export class ReleaseError extends Error {
  constructor(
    readonly code: TReleaseErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReleaseError';
  }
}
