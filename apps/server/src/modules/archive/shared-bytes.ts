/**
 * Reused shared memory for instances received by C-STORE (ARCHIVE.md "ingest workers"). The SCP
 * assembles each instance into a slot from here (`allocateBytes`); an ingest worker reads the same
 * memory without a copy, and the main thread writes it to the blob store from there. Reuse also
 * spares the main thread a fresh 0.5 MB buffer per instance (page faults, and garbage collections
 * driven by the external memory).
 *
 * A slot goes back only by `release` after its ingest is over (the worker answered, the blob
 * write settled); a slot lent out is never handed out twice. Bytes not from here are ignored.
 */

/** Slots are powers of two from here: a 0.5 MB CT slice (plus its header) takes a 1 MB slot. */
const MIN_SLOT_BYTES = 64 * 1024;
/** Larger instances get memory of their own, not kept. */
const MAX_SLOT_BYTES = 16 * 2 ** 20;
/** Free slots kept at most, in bytes (untouched pages of a slot cost no RSS). */
const MAX_FREE_BYTES = 48 * 2 ** 20;

export class SharedBytesPool {
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  private freeBytes = 0;
  private readonly lent = new WeakSet<SharedArrayBuffer>();

  allocate(length: number): Uint8Array {
    if (length > MAX_SLOT_BYTES) return new Uint8Array(length);
    let size = MIN_SLOT_BYTES;
    while (size < length) size *= 2;
    const slot = this.free.get(size)?.pop();
    if (slot) this.freeBytes -= size;
    const memory = slot ?? new SharedArrayBuffer(size);
    this.lent.add(memory);
    return new Uint8Array(memory, 0, length);
  }

  /** The ingest of these bytes is over: their slot may take the next instance. */
  release(bytes: Uint8Array): void {
    const memory = bytes.buffer;
    if (!(memory instanceof SharedArrayBuffer) || !this.lent.has(memory)) return;
    this.lent.delete(memory);
    if (this.freeBytes + memory.byteLength > MAX_FREE_BYTES) return;
    const slots = this.free.get(memory.byteLength) ?? [];
    slots.push(memory);
    this.free.set(memory.byteLength, slots);
    this.freeBytes += memory.byteLength;
  }
}
