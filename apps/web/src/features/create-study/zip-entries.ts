/**
 * The first bytes of each file inside a .zip a clerk attaches, read in the browser without a zip
 * library: the central directory says where each entry is, stored entries are sliced, deflated ones
 * are inflated by the browser's own `DecompressionStream('deflate-raw')` only as far as the bytes
 * asked for. ZIP64 archives (over 4 GB or 65,535 entries) are read too; encrypted entries, other
 * compression methods and folders are skipped. Anything that is not a readable zip yields nothing:
 * the server reads it on upload and says what is wrong.
 */

export interface TZipEntryHead {
  name: string;
  /** Its uncompressed size as the archive declares it. */
  size: number;
  /** Its first bytes (all of them when it is smaller than asked). */
  head: Uint8Array;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_32 = 0xffffffff;

interface TCentralEntry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  size: number;
  localOffset: number;
}

async function bytesOf(file: Blob, start: number, end: number): Promise<DataView> {
  const buffer = await file.slice(Math.max(0, start), Math.min(file.size, end)).arrayBuffer();
  return new DataView(buffer);
}

const u64 = (view: DataView, at: number) => Number(view.getBigUint64(at, true));

/** Where the central directory is and how long it is, or null when this is no zip. */
async function centralDirectory(file: Blob): Promise<{ offset: number; size: number } | null> {
  // The end record is 22 bytes plus a comment of up to 65,535.
  const tailStart = Math.max(0, file.size - 22 - 0xffff);
  const tail = await bytesOf(file, tailStart, file.size);
  for (let at = tail.byteLength - 22; at >= 0; at--) {
    if (tail.getUint32(at, true) !== EOCD) continue;
    let size = tail.getUint32(at + 12, true);
    let offset = tail.getUint32(at + 16, true);
    if (
      (offset === MAX_32 || size === MAX_32) &&
      at >= 20 &&
      tail.getUint32(at - 20, true) === ZIP64_LOCATOR
    ) {
      const recordAt = u64(tail, at - 20 + 8);
      const record = await bytesOf(file, recordAt, recordAt + 56);
      if (record.byteLength < 56 || record.getUint32(0, true) !== ZIP64_EOCD) return null;
      size = u64(record, 40);
      offset = u64(record, 48);
    }
    return offset + size <= file.size ? { offset, size } : null;
  }
  return null;
}

function centralEntries(view: DataView): TCentralEntry[] {
  const entries: TCentralEntry[] = [];
  const decoder = new TextDecoder();
  let at = 0;
  while (at + 46 <= view.byteLength && view.getUint32(at, true) === CENTRAL) {
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = decoder.decode(new Uint8Array(view.buffer, view.byteOffset + at + 46, nameLength));
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    let localOffset = view.getUint32(at + 42, true);
    // ZIP64 extra field: the 64-bit values of the fields that hold 0xFFFFFFFF, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(x, true);
      const length = view.getUint16(x + 2, true);
      if (id === 0x0001) {
        let field = x + 4;
        if (size === MAX_32) {
          size = u64(view, field);
          field += 8;
        }
        if (compressedSize === MAX_32) {
          compressedSize = u64(view, field);
          field += 8;
        }
        if (localOffset === MAX_32) localOffset = u64(view, field);
      }
      x += 4 + length;
    }
    entries.push({
      name,
      method: view.getUint16(at + 10, true),
      encrypted: (view.getUint16(at + 8, true) & 1) === 1,
      compressedSize,
      size,
      localOffset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Up to `limit` bytes of a deflated range, inflated; the rest is never inflated. */
async function inflateHead(data: Blob, limit: number): Promise<Uint8Array> {
  const reader = data.stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const out = new Uint8Array(limit);
  let filled = 0;
  try {
    while (filled < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, limit - filled);
      out.set(value.subarray(0, take), filled);
      filled += take;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return out.subarray(0, filled);
}

/**
 * The first `headBytes` of each file entry of the zip, in the archive's order, at most
 * `maxEntries`. A damaged entry is skipped; a damaged archive yields nothing.
 */
export async function* zipEntryHeads(
  file: Blob,
  headBytes: number,
  maxEntries = 1000,
): AsyncGenerator<TZipEntryHead> {
  const directory = await centralDirectory(file).catch(() => null);
  if (!directory) return;
  const entries = centralEntries(await bytesOf(file, directory.offset, directory.offset + directory.size));
  let yielded = 0;
  for (const entry of entries) {
    if (yielded >= maxEntries) return;
    if (entry.name.endsWith('/') || entry.name.startsWith('__MACOSX/') || entry.encrypted) continue;
    if (entry.method !== 0 && entry.method !== 8) continue;
    try {
      const local = await bytesOf(file, entry.localOffset, entry.localOffset + 30);
      if (local.byteLength < 30 || local.getUint32(0, true) !== LOCAL) continue;
      const dataStart = entry.localOffset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
      const data = file.slice(dataStart, dataStart + entry.compressedSize);
      const head =
        entry.method === 0
          ? new Uint8Array(await data.slice(0, headBytes).arrayBuffer())
          : await inflateHead(data, Math.min(headBytes, entry.size));
      yielded++;
      yield { name: entry.name, size: entry.size, head };
    } catch {
      // A damaged entry: the server will say so on upload.
    }
  }
}
