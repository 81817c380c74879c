/**
 * Specific Character Set (0008,0005) decoding: PS3.3 §C.12.1.1.2 (defined terms) and PS3.5 §6.1
 * (repertoires, ISO/IEC 2022 code extensions and when they reset).
 *
 * Single-byte and UTF-8/GB18030 sets decode with TextDecoder (Node ships full ICU). ISO 2022 code
 * extensions are handled here: escape sequences switch the G0 (bytes 0x21-0x7E) and G1 (0xA1-0xFE)
 * sets; each run is then decoded by a TextDecoder for the equivalent EUC / ISO 8859 byte form.
 */

type CodeSet =
  | { readonly kind: 'ascii' }
  | { readonly kind: 'jisRoman' }
  | { readonly kind: 'jisKatakana' }
  | { readonly kind: 'jisX0208' }
  | { readonly kind: 'jisX0212' }
  | { readonly kind: 'ksX1001' }
  | { readonly kind: 'gb2312' }
  | { readonly kind: 'singleByte'; readonly label: string };

interface CodeState {
  readonly g0: CodeSet;
  readonly g1: CodeSet | undefined;
}

const ASCII: CodeSet = { kind: 'ascii' };
const JIS_ROMAN: CodeSet = { kind: 'jisRoman' };
const JIS_KATAKANA: CodeSet = { kind: 'jisKatakana' };
const JIS_X0208: CodeSet = { kind: 'jisX0208' };
const JIS_X0212: CodeSet = { kind: 'jisX0212' };
const KS_X1001: CodeSet = { kind: 'ksX1001' };
const GB2312: CodeSet = { kind: 'gb2312' };
const singleByte = (label: string): CodeSet => ({ kind: 'singleByte', label });

/** ISO 8859 parts by the DICOM 'IR nnn' number (PS3.3 Table C.12-2/C.12-3). */
const SINGLE_BYTE_LABELS: Readonly<Record<string, string>> = {
  '100': 'latin1',
  '101': 'iso-8859-2',
  '109': 'iso-8859-3',
  '110': 'iso-8859-4',
  '144': 'iso-8859-5',
  '127': 'iso-8859-6',
  '126': 'iso-8859-7',
  '138': 'iso-8859-8',
  '148': 'iso-8859-9',
  '203': 'iso-8859-15',
  '166': 'windows-874',
};

/** ISO 2022 escape sequences (the bytes after ESC) of PS3.3 Tables C.12-3 and C.12-4. */
const ESCAPES: ReadonlyArray<readonly [string, 'g0' | 'g1', CodeSet]> = [
  ['(B', 'g0', ASCII],
  ['(J', 'g0', JIS_ROMAN],
  [')I', 'g1', JIS_KATAKANA],
  ['$B', 'g0', JIS_X0208],
  ['$@', 'g0', JIS_X0208],
  ['$(D', 'g0', JIS_X0212],
  ['$)C', 'g1', KS_X1001],
  ['$)A', 'g1', GB2312],
  ['-A', 'g1', singleByte('latin1')],
  ['-B', 'g1', singleByte('iso-8859-2')],
  ['-C', 'g1', singleByte('iso-8859-3')],
  ['-D', 'g1', singleByte('iso-8859-4')],
  ['-L', 'g1', singleByte('iso-8859-5')],
  ['-G', 'g1', singleByte('iso-8859-6')],
  ['-F', 'g1', singleByte('iso-8859-7')],
  ['-H', 'g1', singleByte('iso-8859-8')],
  ['-M', 'g1', singleByte('iso-8859-9')],
  ['-T', 'g1', singleByte('windows-874')],
  ['-b', 'g1', singleByte('iso-8859-15')],
].map(([seq, slot, set]) => [seq as string, slot as 'g0' | 'g1', set as CodeSet] as const);

type Decoder = InstanceType<typeof TextDecoder>;
const decoders = new Map<string, Decoder>();
function textDecoder(label: string): Decoder {
  let decoder = decoders.get(label);
  if (!decoder) {
    decoder = new TextDecoder(label);
    decoders.set(label, decoder);
  }
  return decoder;
}
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as ISO 8859-1 code points (TextDecoder's 'latin1' is really windows-1252). */
function decodeLatin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i += 4096) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)) as unknown as number[]);
  }
  return out;
}

function hasHighOrEscape(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80 || b === 0x1b) return true;
  }
  return false;
}

function decodeSingleByte(label: string, bytes: Uint8Array): string {
  return label === 'latin1' ? decodeLatin1(bytes) : textDecoder(label).decode(bytes);
}

/** A normalised defined term: upper case, single spaces, the common 'ISO-IR 100' / 'ISO_IR100' slips fixed. */
export function normalizeCharsetTerm(term: string): string {
  const t = term.trim().toUpperCase().replace(/\s+/g, ' ');
  const single = /^ISO[-_ ]?IR[-_ ]?(\d+)$/.exec(t);
  if (single) return `ISO_IR ${single[1]}`;
  const extended = /^ISO[-_ ]?2022[-_ ]?IR[-_ ]?(\d+)$/.exec(t);
  if (extended) return `ISO 2022 IR ${extended[1]}`;
  return t;
}

type Plan =
  | { readonly kind: 'default' }
  | { readonly kind: 'latin1' }
  | { readonly kind: 'textDecoder'; readonly label: string }
  | { readonly kind: 'iso2022'; readonly initial: CodeState };

function initialStateOf(term: string): CodeState | undefined {
  if (term === '' || term === 'ISO_IR 6' || term === 'ISO 2022 IR 6') return { g0: ASCII, g1: undefined };
  const m = /^(?:ISO_IR|ISO 2022 IR) (\d+)$/.exec(term);
  const number = m?.[1];
  if (number === undefined) return undefined;
  if (number === '13') return { g0: JIS_ROMAN, g1: JIS_KATAKANA };
  if (number === '87') return { g0: JIS_X0208, g1: undefined };
  if (number === '159') return { g0: JIS_X0212, g1: undefined };
  if (number === '149') return { g0: ASCII, g1: KS_X1001 };
  if (number === '58') return { g0: ASCII, g1: GB2312 };
  const label = SINGLE_BYTE_LABELS[number];
  return label ? { g0: ASCII, g1: singleByte(label) } : undefined;
}

function planFor(charsets: readonly string[]): Plan {
  const terms = charsets.map(normalizeCharsetTerm);
  const first = terms[0] ?? '';
  if (first === 'ISO_IR 192') return { kind: 'textDecoder', label: 'utf-8' };
  if (first === 'GB18030') return { kind: 'textDecoder', label: 'gb18030' };
  if (first === 'GBK') return { kind: 'textDecoder', label: 'gbk' };
  const isExtended = terms.length > 1 || terms.some((t) => t.startsWith('ISO 2022'));
  if (!isExtended) {
    if (first === '' || first === 'ISO_IR 6') return { kind: 'default' };
    if (first === 'ISO_IR 100') return { kind: 'latin1' };
    if (first === 'ISO_IR 13') return { kind: 'iso2022', initial: { g0: JIS_ROMAN, g1: JIS_KATAKANA } };
    const number = /^ISO_IR (\d+)$/.exec(first)?.[1];
    const label = number === undefined ? undefined : SINGLE_BYTE_LABELS[number];
    return label ? { kind: 'textDecoder', label } : { kind: 'default' };
  }
  // PS3.5 §6.1.2.5.3: value 1 is the set active at the start of each value (a multi-byte set is
  // never the default G0, so only its G1 half is taken).
  const state = initialStateOf(first) ?? { g0: ASCII, g1: undefined };
  const g0 = state.g0.kind === 'jisX0208' || state.g0.kind === 'jisX0212' ? ASCII : state.g0;
  return { kind: 'iso2022', initial: { g0, g1: state.g1 } };
}

const isMultiByteG0 = (set: CodeSet): boolean => set.kind === 'jisX0208' || set.kind === 'jisX0212';

function decodeJis(bytes: Uint8Array, start: number, end: number, set: CodeSet): string {
  const isX0212 = set.kind === 'jisX0212';
  const euc = new Uint8Array(isX0212 ? ((end - start) / 2) * 3 : end - start);
  let o = 0;
  for (let i = start; i < end; i += 2) {
    if (isX0212) euc[o++] = 0x8f;
    euc[o++] = (bytes[i] as number) | 0x80;
    euc[o++] = (bytes[i + 1] as number) | 0x80;
  }
  return textDecoder('euc-jp').decode(euc);
}

function decodeG1(bytes: Uint8Array, start: number, end: number, set: CodeSet | undefined): string {
  const run = bytes.subarray(start, end);
  switch (set?.kind) {
    case undefined:
      return decodeLatin1(run);
    case 'singleByte':
      return decodeSingleByte(set.label, run);
    case 'ksX1001':
      return textDecoder('euc-kr').decode(run);
    case 'gb2312':
      return textDecoder('gb18030').decode(run);
    case 'jisKatakana': {
      let out = '';
      for (const b of run) out += b >= 0xa1 && b <= 0xdf ? String.fromCharCode(0xff61 + b - 0xa1) : '\ufffd';
      return out;
    }
    case 'ascii':
    case 'jisRoman':
    case 'jisX0208':
    case 'jisX0212':
      return decodeLatin1(run);
  }
}

function matchEscape(bytes: Uint8Array, at: number): (typeof ESCAPES)[number] | undefined {
  for (const escape of ESCAPES) {
    const seq = escape[0];
    if (at + 1 + seq.length > bytes.length) continue;
    let isMatch = true;
    for (let k = 0; k < seq.length; k++) {
      if (bytes[at + 1 + k] !== seq.charCodeAt(k)) {
        isMatch = false;
        break;
      }
    }
    if (isMatch) return escape;
  }
  return undefined;
}

const BACKSLASH = 0x5c;
const CARET = 0x5e;
const EQUALS = 0x3d;

function decodeIso2022(bytes: Uint8Array, initial: CodeState, isPersonName: boolean): string {
  let { g0, g1 } = initial;
  let out = '';
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b === 0x1b) {
      const escape = matchEscape(bytes, i);
      if (escape) {
        if (escape[1] === 'g0') g0 = escape[2];
        else g1 = escape[2];
        i += 1 + escape[0].length;
      } else {
        i += 1; // an unknown escape: drop the ESC, keep what follows readable
      }
      continue;
    }
    if (b >= 0x80) {
      let j = i + 1;
      while (j < n && (bytes[j] as number) >= 0x80) j++;
      out += decodeG1(bytes, i, j, g1);
      i = j;
      continue;
    }
    if (isMultiByteG0(g0) && b >= 0x21 && b <= 0x7e) {
      let j = i;
      while (
        j + 1 < n &&
        (bytes[j] as number) >= 0x21 &&
        (bytes[j] as number) <= 0x7e &&
        (bytes[j + 1] as number) >= 0x21 &&
        (bytes[j + 1] as number) <= 0x7e
      ) {
        j += 2;
      }
      if (j === i) {
        out += String.fromCharCode(b);
        i++;
      } else {
        out += decodeJis(bytes, i, j, g0);
        i = j;
      }
      continue;
    }
    // A single-byte G0 character. PS3.5 §6.1.2.5.3: the initial sets are active again after a
    // value delimiter, a control character and, in person names, after '^' and '='.
    const isDelimiter = b === BACKSLASH || b < 0x20 || (isPersonName && (b === CARET || b === EQUALS));
    out += g0.kind === 'jisRoman' && b === BACKSLASH && !isDelimiter ? '\u00a5' : String.fromCharCode(b);
    if (isDelimiter) {
      g0 = initial.g0;
      // Many writers designate the G1 set once per value; keep it unless value 1 names its own G1.
      if (initial.g1) g1 = initial.g1;
    }
    i++;
  }
  return out;
}

/** Decodes the bytes of text values (SH, LO, ST, LT, UT, UC, PN) in one Specific Character Set. */
export interface CharsetDecoder {
  /** The terms as found in (0008,0005), one per value. */
  readonly charsets: readonly string[];
  decode(bytes: Uint8Array, isPersonName?: boolean): string;
}

const decoderCache = new Map<string, CharsetDecoder>();

/**
 * A decoder for the values of a Specific Character Set (0008,0005), given as its values
 * (e.g. `['', 'ISO 2022 IR 87']`). Unknown terms fall back to the default repertoire, read
 * leniently (UTF-8 when the bytes are valid UTF-8, else ISO 8859-1) as real files often carry
 * non-ASCII bytes without declaring a set.
 */
export function createCharsetDecoder(charsets: readonly string[] | undefined): CharsetDecoder {
  const values = charsets ?? [];
  const key = values.join('\\');
  const cached = decoderCache.get(key);
  if (cached) return cached;
  const plan = planFor(values);
  const decode = (bytes: Uint8Array, isPersonName = false): string => {
    if (!hasHighOrEscape(bytes)) return decodeLatin1(bytes);
    switch (plan.kind) {
      case 'default':
        try {
          return strictUtf8.decode(bytes);
        } catch {
          return decodeLatin1(bytes);
        }
      case 'latin1':
        return decodeLatin1(bytes);
      case 'textDecoder':
        return textDecoder(plan.label).decode(bytes);
      case 'iso2022':
        return decodeIso2022(bytes, plan.initial, isPersonName);
    }
  };
  const decoder: CharsetDecoder = { charsets: values, decode };
  if (decoderCache.size < 256) decoderCache.set(key, decoder);
  return decoder;
}
