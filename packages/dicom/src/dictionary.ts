// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- dcmjs ships no types; programs importing this package need these declarations too
/// <reference path="./vendor.d.ts" />
/**
 * The data dictionary (PS3.6 §6) for reading implicit-VR data sets (PS3.5 §7.1.3), where the VR
 * of an element is not on the wire. Built once, on first use, from dcmjs's copy of PS3.6.
 */
import { dictionary as dcmjsDictionary } from 'dcmjs/dictionary';

export interface DictionaryEntry {
  /** The VR as written in PS3.6, e.g. 'US', or 'US or SS' style ambiguities kept as 'xs'/'ox'. */
  readonly vr: string;
  readonly keyword: string;
}

interface RangeEntry {
  readonly groupMin: number;
  readonly groupMax: number;
  readonly elementMin: number;
  readonly elementMax: number;
  readonly entry: DictionaryEntry;
}

let exact: Map<number, DictionaryEntry> | undefined;
let ranges: RangeEntry[] = [];
let byKeyword: Map<string, number> | undefined;

function parseRange(text: string): [number, number] | undefined {
  const parts = text.split('-');
  if (parts.length === 1 && /^[0-9A-F]{4}$/i.test(text)) {
    const value = parseInt(text, 16);
    return [value, value];
  }
  if (parts.length === 2 && parts.every((p) => /^[0-9A-F]{4}$/i.test(p))) {
    return [parseInt(parts[0] as string, 16), parseInt(parts[1] as string, 16)];
  }
  return undefined; // 'odd groups' style ranges: handled by rules in lookupTag
}

function build(): Map<number, DictionaryEntry> {
  const map = new Map<number, DictionaryEntry>();
  const keywords = new Map<string, number>();
  const rangeList: RangeEntry[] = [];
  for (const [key, value] of Object.entries(dcmjsDictionary)) {
    const match = /^\(([^,]+),([^)]+)\)$/.exec(key);
    if (!match || value.version === 'PrivateTag') continue;
    const entry: DictionaryEntry = { vr: value.vr, keyword: value.name };
    const groups = parseRange(match[1] as string);
    const elements = parseRange(match[2] as string);
    if (!groups || !elements) continue;
    if (groups[0] === groups[1] && elements[0] === elements[1]) {
      const tag = ((groups[0] << 16) | elements[0]) >>> 0;
      map.set(tag, entry);
      keywords.set(value.name, tag);
    } else {
      rangeList.push({
        groupMin: groups[0],
        groupMax: groups[1],
        elementMin: elements[0],
        elementMax: elements[1],
        entry,
      });
    }
  }
  ranges = rangeList;
  byKeyword = keywords;
  return map;
}

const GROUP_LENGTH: DictionaryEntry = { vr: 'UL', keyword: 'GroupLength' };
const PRIVATE_CREATOR: DictionaryEntry = { vr: 'LO', keyword: 'PrivateCreator' };

/** The PS3.6 entry of a tag given as a 32-bit number, or undefined (private data elements, unknown tags). */
export function lookupTag(tag: number): DictionaryEntry | undefined {
  exact ??= build();
  const hit = exact.get(tag);
  if (hit) return hit;
  const group = tag >>> 16;
  const element = tag & 0xffff;
  if (element === 0) return GROUP_LENGTH;
  if (group % 2 === 1) {
    // PS3.5 §7.8.1: (gggg,0010-00FF) in an odd group are Private Creator Data Elements.
    return element >= 0x10 && element <= 0xff ? PRIVATE_CREATOR : undefined;
  }
  for (const range of ranges) {
    if (
      group >= range.groupMin &&
      group <= range.groupMax &&
      element >= range.elementMin &&
      element <= range.elementMax
    ) {
      return range.entry;
    }
  }
  return undefined;
}

/** Tag number of a PS3.6 keyword, e.g. 'PatientName' → 0x00100010. */
export function tagOfKeyword(keyword: string): number | undefined {
  exact ??= build();
  return byKeyword?.get(keyword);
}

/** A tag number from dicom-parser's 'xggggeeee' form. */
export function tagFromParserKey(key: string): number {
  return parseInt(key.slice(1), 16) >>> 0;
}

/** A tag as PS3.18 F.2 writes it: eight uppercase hex digits. */
export function tagToHex(tag: number): string {
  return tag.toString(16).toUpperCase().padStart(8, '0');
}

/**
 * One VR for an implicit-VR element. PS3.6 lists a few tags as 'US or SS' / 'OB or OW'; PS3.5
 * §A.1 says implicit VR little endian encodes pixel-like data as OW, and the US/SS choice follows
 * Pixel Representation.
 */
export function resolveImplicitVr(tag: number, isSigned = false): string | undefined {
  const entry = lookupTag(tag);
  if (!entry) return undefined;
  switch (entry.vr) {
    case 'xs':
      return isSigned ? 'SS' : 'US';
    case 'ox':
    case 'lt':
      return 'OW';
    case 'up':
      return 'UL';
    case 'na':
      return undefined;
    default:
      return entry.vr;
  }
}
