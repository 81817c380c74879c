/**
 * DICOM parsing, PS3.18 JSON, frame extraction, anonymisation and DIMSE helpers.
 * Filled in by the Imaging archive issue; this module only names the transfer syntaxes so far.
 */
export const TRANSFER_SYNTAX = {
  implicitVrLittleEndian: '1.2.840.10008.1.2',
  explicitVrLittleEndian: '1.2.840.10008.1.2.1',
  explicitVrBigEndian: '1.2.840.10008.1.2.2',
} as const;

export function isKnownUncompressedSyntax(uid: string): boolean {
  return (Object.values(TRANSFER_SYNTAX) as string[]).includes(uid);
}
