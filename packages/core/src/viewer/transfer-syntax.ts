/**
 * Which stored transfer syntaxes the web viewer's decoders handle: the list of Cornerstone's decode
 * worker (@cornerstonejs/dicom-image-loader 5.14 decodeImageFrame; check it again when Cornerstone is
 * upgraded). The server sends frames as stored (big endian swapped to little), so anything else is
 * shown as unsupported rather than tried. One list for the browser and any server code that asks.
 */
export const BROWSER_DECODABLE_TRANSFER_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2',
  '1.2.840.10008.1.2.1',
  '1.2.840.10008.1.2.2',
  '1.2.840.10008.1.2.1.99',
  '1.2.840.10008.1.2.1.98',
  '1.2.840.10008.1.2.8.1',
  '1.2.840.10008.1.2.5',
  '1.2.840.10008.1.2.4.50',
  '1.2.840.10008.1.2.4.51',
  '1.2.840.10008.1.2.4.53',
  '1.2.840.10008.1.2.4.55',
  '1.2.840.10008.1.2.4.57',
  '1.2.840.10008.1.2.4.70',
  '1.2.840.10008.1.2.4.80',
  '1.2.840.10008.1.2.4.81',
  '1.2.840.10008.1.2.4.90',
  '1.2.840.10008.1.2.4.91',
  '1.2.840.10008.1.2.4.201',
  '1.2.840.10008.1.2.4.202',
  '1.2.840.10008.1.2.4.203',
  '1.2.840.10008.1.2.4.110',
  '1.2.840.10008.1.2.4.111',
  '1.2.840.10008.1.2.4.112',
]);

/** Names of the syntaxes the viewer cannot decode (PS3.6 Annex A), for the placeholder. */
const UNSUPPORTED_NAMES: Record<string, string> = {
  '1.2.840.10008.1.2.4.92': 'JPEG 2000 Part 2 Multi-component (Lossless Only)',
  '1.2.840.10008.1.2.4.93': 'JPEG 2000 Part 2 Multi-component',
  '1.2.840.10008.1.2.4.94': 'JPIP Referenced',
  '1.2.840.10008.1.2.4.95': 'JPIP Referenced Deflate',
  '1.2.840.10008.1.2.4.100': 'MPEG2 Main Profile / Main Level',
  '1.2.840.10008.1.2.4.101': 'MPEG2 Main Profile / High Level',
  '1.2.840.10008.1.2.4.102': 'MPEG-4 AVC/H.264 High Profile / Level 4.1',
  '1.2.840.10008.1.2.4.103': 'MPEG-4 AVC/H.264 BD-compatible High Profile / Level 4.1',
  '1.2.840.10008.1.2.4.104': 'MPEG-4 AVC/H.264 High Profile / Level 4.2 For 2D Video',
  '1.2.840.10008.1.2.4.105': 'MPEG-4 AVC/H.264 High Profile / Level 4.2 For 3D Video',
  '1.2.840.10008.1.2.4.106': 'MPEG-4 AVC/H.264 Stereo High Profile / Level 4.2',
  '1.2.840.10008.1.2.4.107': 'HEVC/H.265 Main Profile / Level 5.1',
  '1.2.840.10008.1.2.4.108': 'HEVC/H.265 Main 10 Profile / Level 5.1',
  '1.2.840.10008.1.2.6.1': 'RFC 2557 MIME encapsulation',
};

/** Whether the browser can show frames stored in this syntax (an unknown, empty one is tried). */
export function isDecodableSyntax(uid: string): boolean {
  return uid === '' || BROWSER_DECODABLE_TRANSFER_SYNTAXES.has(uid);
}

/** The text of the 'unsupported' placeholder, naming the syntax. */
export function unsupportedSyntaxText(uid: string): string {
  const name = UNSUPPORTED_NAMES[uid];
  return `Unsupported transfer syntax: ${name ? `${name} (${uid})` : uid}. This image cannot be shown in the browser.`;
}
