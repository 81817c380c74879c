import { describe, expect, it } from 'vitest';
import { manifest } from './test-fixtures.js';
import {
  describeTransferSyntax,
  getTransferSyntax,
  listTransferSyntaxes,
  TRANSFER_SYNTAX,
} from './transfer-syntax.js';

describe('transfer syntax table', () => {
  it('knows every transfer syntax of the corpus by its name', () => {
    for (const file of manifest.files.filter((f) => f.transfer_syntax_uid)) {
      const info = getTransferSyntax(file.transfer_syntax_uid!);
      expect(info, file.transfer_syntax_uid!).toBeDefined();
    }
  });

  it('says which syntaxes the browser codecs decode', () => {
    const decodable = (uid: string) => getTransferSyntax(uid)?.isBrowserDecodable;
    for (const uid of Object.values(TRANSFER_SYNTAX)) {
      expect(decodable(uid), uid).toBe(
        uid !== TRANSFER_SYNTAX.encapsulatedUncompressedExplicitVrLittleEndian,
      );
    }
    expect(decodable('1.2.840.10008.1.2.4.100')).toBe(false); // MPEG2
    expect(decodable('1.2.840.10008.1.2.4.102')).toBe(false); // H.264
    expect(decodable('1.2.840.10008.1.2.4.107')).toBe(false); // HEVC
  });

  it('marks encapsulated, deflated and big endian syntaxes', () => {
    expect(getTransferSyntax(TRANSFER_SYNTAX.rleLossless)?.isEncapsulated).toBe(true);
    expect(getTransferSyntax(TRANSFER_SYNTAX.implicitVrLittleEndian)).toMatchObject({
      isEncapsulated: false,
      isExplicitVr: false,
    });
    expect(getTransferSyntax(TRANSFER_SYNTAX.deflatedExplicitVrLittleEndian)).toMatchObject({
      isDeflated: true,
      isEncapsulated: false,
    });
    expect(getTransferSyntax(TRANSFER_SYNTAX.explicitVrBigEndian)?.isBigEndian).toBe(true);
    expect(new Set(listTransferSyntaxes().map((ts) => ts.uid)).size).toBe(listTransferSyntaxes().length);
  });

  it('reads an unknown (private) syntax as explicit VR little endian, encapsulated (PS3.5 §10)', () => {
    expect(describeTransferSyntax('1.2.3.999')).toMatchObject({
      isEncapsulated: true,
      isExplicitVr: true,
      isBrowserDecodable: false,
    });
  });
});
