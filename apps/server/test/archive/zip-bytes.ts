import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Zip files written by hand, so a test can say anything in the headers: sizes that lie, sizes
 * declared huge, data deflated once and reused (a bomb of zeros without deflating it twice).
 */
export interface THandZipEntry {
  name: string;
  /** The entry's bytes as stored in the zip: raw deflate (method 8) or the bytes (method 0). */
  data: Buffer;
  method: 0 | 8;
  /** What the headers say the entry inflates to. */
  declaredSize: number;
  crc?: number;
}

/** An entry whose headers tell the truth about `bytes`. */
export function deflatedEntry(name: string, bytes: Uint8Array): THandZipEntry {
  return {
    name,
    data: deflateRawSync(bytes),
    method: 8,
    declaredSize: bytes.length,
    crc: crc32(bytes),
  };
}

export function handZip(entries: THandZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const flags = /^[\x20-\x7e]*$/.test(e.name) ? 0 : 0x0800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(flags, 6); // bit 11: UTF-8 name
    local.writeUInt16LE(e.method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(e.crc ?? 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, e.data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(e.crc ?? 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
