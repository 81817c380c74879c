import { describe, expect, it } from 'vitest';
import { createCharsetDecoder, normalizeCharsetTerm } from './charset.js';
import { parseInstance } from './parse.js';
import { manifest, readFixture } from './test-fixtures.js';

const hex = (text: string): Uint8Array =>
  new Uint8Array(
    text
      .trim()
      .split(/\s+/)
      .map((byte) => parseInt(byte, 16)),
  );

describe('Specific Character Set decoding of the corpus', () => {
  const withNames = manifest.files.filter((file) => file.expected.startsWith('valid') && file.patient_name);
  it.each(withNames.map((file) => [file.path, file.specific_character_set, file.patient_name] as const))(
    '%s (%j) decodes the patient name as recorded',
    (path, _charset, name) => {
      expect(parseInstance(readFixture(path)).index.patientName).toBe(name);
    },
  );
});

describe('createCharsetDecoder', () => {
  it('decodes ISO 2022 IR 13 + IR 87: half-width katakana, kanji, hiragana (PS3.5 Annex H.3.1)', () => {
    const bytes =
      hex(`D4 CF C0 DE 5E C0 DB B3 3D 1B 24 42 3B 33 45 44 1B 28 4A 5E 1B 24 42 42 40 4F 3A 1B 28 4A 3D
      1B 24 42 24 64 24 5E 24 40 1B 28 4A 5E 1B 24 42 24 3F 24 6D 24 26 1B 28 4A`);
    expect(createCharsetDecoder(['ISO 2022 IR 13', 'ISO 2022 IR 87']).decode(bytes, true)).toBe(
      'ﾔﾏﾀﾞ^ﾀﾛｳ=山田^太郎=やまだ^たろう',
    );
  });

  it('decodes ISO 2022 IR 149 Korean with an escape per component (PS3.5 Annex I.2)', () => {
    const bytes = hex(`48 6F 6E 67 5E 47 69 6C 64 6F 6E 67 3D 1B 24 29 43 FB F3 5E 1B 24 29 43 D1 CE D4 D7 3D
      1B 24 29 43 C8 AB 5E 1B 24 29 43 B1 E6 B5 BF`);
    expect(createCharsetDecoder(['', 'ISO 2022 IR 149']).decode(bytes, true)).toBe(
      'Hong^Gildong=洪^吉洞=홍^길동',
    );
  });

  it('keeps a G1 designation made once for the rest of the value (common Korean writers)', () => {
    const bytes = hex('1B 24 29 43 C8 AB 5E B1 E6 B5 BF');
    expect(createCharsetDecoder(['', 'ISO 2022 IR 149']).decode(bytes, true)).toBe('홍^길동');
  });

  it('decodes ISO 2022 IR 58 simplified Chinese (PS3.5 Annex K.2)', () => {
    const bytes = hex(
      `5A 68 61 6E 67 5E 58 69 61 6F 44 6F 6E 67 3D 1B 24 29 41 D5 C5 5E 1B 24 29 41 D0 A1 B6 AB 3D 20`,
    );
    expect(createCharsetDecoder(['', 'ISO 2022 IR 58']).decode(bytes, true).trimEnd()).toBe(
      'Zhang^XiaoDong=张^小东=',
    );
  });

  it('decodes JIS X 0212 (ISO 2022 IR 159) through its escape', () => {
    const bytes = hex('41 1B 24 28 44 30 21 1B 28 42 42');
    expect(createCharsetDecoder(['', 'ISO 2022 IR 159']).decode(bytes)).toBe('A丂B');
  });

  it('switches single-byte G1 sets by escape (ISO 2022 IR 100 + IR 126)', () => {
    const bytes = hex('4A E9 72 F4 6D 65 5E 1B 2D 46 C4 E9 EF ED F5 F3 E9 EF F2');
    expect(createCharsetDecoder(['ISO 2022 IR 100', 'ISO 2022 IR 126']).decode(bytes, true)).toBe(
      'Jérôme^Διονυσιος',
    );
  });

  it.each([
    ['ISO_IR 100', 'E9 E8', 'éè'],
    ['ISO_IR 101', 'B1 E6', 'ąć'],
    ['ISO_IR 144', 'BB EE', 'Лю'],
    ['ISO_IR 126', 'C4 E9', 'Δι'],
    ['ISO_IR 127', 'D1 C8', 'رب'],
    ['ISO_IR 138', 'F9 E5', 'שו'],
    ['ISO_IR 148', 'DD FD', 'İı'],
    ['ISO_IR 166', 'A1 A2', 'กข'],
    ['ISO_IR 13', 'B1 B2', 'ｱｲ'],
    ['ISO_IR 192', 'E7 8E 8B', '王'],
    ['GB18030', 'CD F5', '王'],
    ['GBK', 'CD F5', '王'],
  ])('decodes %s', (charset, bytes, text) => {
    expect(createCharsetDecoder([charset]).decode(hex(bytes))).toBe(text);
  });

  it('reads undeclared non-ASCII bytes leniently: UTF-8 when valid, else Latin-1', () => {
    const decoder = createCharsetDecoder([]);
    expect(decoder.decode(hex('4D C3 BC 6C 6C 65 72'))).toBe('Müller');
    expect(decoder.decode(hex('4D FC 6C 6C 65 72'))).toBe('Müller');
  });

  it('accepts the usual misspellings of the defined terms', () => {
    expect(normalizeCharsetTerm('iso_ir 100 ')).toBe('ISO_IR 100');
    expect(normalizeCharsetTerm('ISO-IR 144')).toBe('ISO_IR 144');
    expect(normalizeCharsetTerm('ISO_IR100')).toBe('ISO_IR 100');
    expect(normalizeCharsetTerm('ISO 2022 IR 87')).toBe('ISO 2022 IR 87');
    expect(createCharsetDecoder(['iso-ir 100']).decode(hex('E9'))).toBe('é');
  });
});
