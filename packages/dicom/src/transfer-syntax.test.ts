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
    });
  });
});
