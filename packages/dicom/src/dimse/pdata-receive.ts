/**
 * A lean receive path for C-STORE (PS3.8 §9.3.5 P-DATA-TF, PS3.7 §9.3.1 C-STORE-RQ/RSP): the
 * association's byte stream is cut into PDUs and PDVs in place, and a C-STORE data set goes to its
 * sink as slices of the socket's own buffers, its response command set encoded here. Everything
 * else — association negotiation, release, abort, C-ECHO, C-FIND, C-CANCEL — is handed to
 * dcmjs-dimse as it would have received it.
 *
 * Why (ARCHIVE.md "C-STORE receive"): dcmjs-dimse reassembles every PDU by a `Buffer.concat` per
 * socket read, then reads each command set with dcmjs (a naturalised data set) and writes each
 * response through dcmjs's write buffers: ~2 ms of CPU per instance, half the cost of receiving a
 * 0.5 MB instance, on the thread that also indexes it.
 */

/** PDU types (PS3.8 Table 9-11). */
const P_DATA_TF = 0x04;
/**
 * A PDU other than P-DATA-TF is gathered whole before dcmjs-dimse reads it: an A-ASSOCIATE-RQ
 * with 128 presentation contexts and user identity stays far below this. A larger length is an
 * attack on memory (a peer could announce 4 GB), not a request.
 */
const MAX_OTHER_PDU_LENGTH = 1 << 20;
/** Command Field (0000,0100) of a C-STORE-RQ and a C-STORE-RSP. */
export const C_STORE_RQ = 0x0001;
const C_STORE_RSP = 0x8001;
/** Command Data Set Type (0000,0800): no data set. */
const NO_DATA_SET = 0x0101;

/** The command set elements the fast path reads (implicit VR little endian, group 0000). */
export interface CommandSet {
  readonly commandField: number;
  readonly messageId: number;
  readonly hasDataSet: boolean;
  readonly affectedSopClassUid: string;
  readonly affectedSopInstanceUid: string;
}

/** What the receiver does with the messages it sees. */
export interface PDataHandler {
  /** A non-P-DATA PDU, whole (header included): for dcmjs-dimse. */
  otherPdu(pdu: Buffer): void;
  /**
   * A complete command set arrived on presentation context `pcid`. Answer `'store'` to take the
   * message's data set through {@link storeData}/{@link storeEnd}, or `'forward'` to hand the
   * whole message (command and data PDVs) to dcmjs-dimse.
   */
  command(pcid: number, command: CommandSet): 'store' | 'forward';
  /** A fragment of the data set of the message being stored (a slice of a received buffer). */
  storeData(chunk: Buffer): void;
  /** The data set of the message being stored is complete. */
  storeEnd(): void;
  /** A P-DATA-TF PDU carrying PDVs of a forwarded message: for dcmjs-dimse. */
  forwardPdu(pdu: Buffer): void;
  /** The stream cannot be a DICOM upper layer stream. */
  protocolError(error: Error): void;
}

/** Reads an implicit VR little endian group-0000 command set (PS3.7 §E.1). */
export function readCommandSet(bytes: Buffer): CommandSet {
  let commandField = -1;
  let messageId = 0;
  let dataSetType = NO_DATA_SET;
  let affectedSopClassUid = '';
  let affectedSopInstanceUid = '';
  let at = 0;
  while (at + 8 <= bytes.length) {
    const group = bytes.readUInt16LE(at);
    const element = bytes.readUInt16LE(at + 2);
    const length = bytes.readUInt32LE(at + 4);
    const value = at + 8;
    if (value + length > bytes.length) throw new Error('command set element runs past its end');
    if (group === 0x0000) {
      if (element === 0x0002) affectedSopClassUid = uidText(bytes, value, length);
      else if (element === 0x0100 && length >= 2) commandField = bytes.readUInt16LE(value);
      else if (element === 0x0110 && length >= 2) messageId = bytes.readUInt16LE(value);
      else if (element === 0x0800 && length >= 2) dataSetType = bytes.readUInt16LE(value);
      else if (element === 0x1000) affectedSopInstanceUid = uidText(bytes, value, length);
    }
    at = value + length;
  }
  if (commandField < 0) throw new Error('command set without a Command Field');
  return {
    commandField,
    messageId,
    hasDataSet: dataSetType !== NO_DATA_SET,
    affectedSopClassUid,
    affectedSopInstanceUid,
  };
}

/** A UI value: ASCII, trailing NUL or space padding removed. */
function uidText(bytes: Buffer, at: number, length: number): string {
  return bytes.toString('latin1', at, at + length).replace(/[\0 ]+$/, '');
}

/** An element of an implicit VR little endian command set; `value` is padded to an even length. */
function element(tag: number, value: Buffer): Buffer {
  const head = Buffer.allocUnsafe(8);
  head.writeUInt16LE(0x0000, 0);
  head.writeUInt16LE(tag, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}

const us = (n: number) => {
  const b = Buffer.allocUnsafe(2);
  b.writeUInt16LE(n & 0xffff, 0);
  return b;
};
const padded = (text: string, pad: number) => {
  const b = Buffer.from(text, 'latin1');
  return b.length % 2 === 0 ? b : Buffer.concat([b, Buffer.from([pad])]);
};

/**
 * The P-DATA-TF PDU of a C-STORE-RSP (PS3.7 Table 9.3-2): Affected SOP Class and Instance UID,
 * Message ID Being Responded To, Status and, when given, Error Comment (already a valid LO).
 */
export function cStoreResponsePdu(
  pcid: number,
  request: Pick<CommandSet, 'messageId' | 'affectedSopClassUid' | 'affectedSopInstanceUid'>,
  status: number,
  errorComment?: string,
): Buffer {
  const elements = [
    element(0x0002, padded(request.affectedSopClassUid, 0)),
    element(0x0100, us(C_STORE_RSP)),
    element(0x0120, us(request.messageId)),
    element(0x0800, us(NO_DATA_SET)),
    element(0x0900, us(status)),
    ...(errorComment ? [element(0x0902, padded(errorComment, 0x20))] : []),
    element(0x1000, padded(request.affectedSopInstanceUid, 0)),
  ];
  const body = Buffer.concat(elements);
  const groupLength = Buffer.allocUnsafe(4);
  groupLength.writeUInt32LE(body.length, 0);
  const command = Buffer.concat([element(0x0000, groupLength), body]);
  return pDataPdu(pcid, 0x03, command); // command, last fragment
}

/**
 * One P-DATA-TF PDU holding one PDV: PDU header (6) + PDV item length (4) + context id (1) +
 * message control header (1), then the value.
 */
function pDataPdu(pcid: number, control: number, value: Buffer): Buffer {
  const pdu = Buffer.allocUnsafe(12 + value.length);
  pdu.writeUInt8(P_DATA_TF, 0);
  pdu.writeUInt8(0, 1);
  pdu.writeUInt32BE(6 + value.length, 2);
  pdu.writeUInt32BE(2 + value.length, 6);
  pdu.writeUInt8(pcid, 10);
  pdu.writeUInt8(control, 11);
  value.copy(pdu, 12);
  return pdu;
}

type Mode =
  /** Between messages, or reading a command set. */
  | 'command'
  /** Data PDVs of a message whose data set goes to the store sink. */
  | 'store'
  /** Data PDVs of a message handed to dcmjs-dimse. */
  | 'forward';

/**
 * Cuts an association's byte stream into PDUs and PDVs without copying PDV values (a value that
 * spans socket reads goes on as several slices). Headers split between reads are gathered in a
 * small buffer. Feed it every chunk the socket emits, in order.
 */
export class PDataReceiver {
  /** Bytes of a header (PDU or PDV) not yet complete. */
  private header = Buffer.alloc(0);
  /** Bytes left of the current PDU's body; 0 between PDUs. */
  private pduLeft = 0;
  /** The current PDU when it is not a P-DATA-TF: gathered whole. */
  private other: Buffer[] | undefined;
  private otherLength = 0;
  /** Bytes left of the current PDV's value; 0 between PDVs. */
  private pdvLeft = 0;
  private pdvPcid = 0;
  private pdvControl = 0;
  /** Fragments of the current PDV when it is a command or a forwarded one. */
  private pdvParts: Buffer[] = [];
  /** Command set fragments so far (a command may span PDVs). */
  private commandParts: Buffer[] = [];
  /** The command PDVs of the message being read, kept in case it is forwarded. */
  private commandPdvs: Array<{ pcid: number; control: number; value: Buffer }> = [];
  private mode: Mode = 'command';
  private failed = false;
  /**
   * PDUs received whole so far: the SCP's idle timer counts these, not bytes, so a peer trickling
   * a PDU byte by byte does not keep its association alive.
   */
  completedPdus = 0;

  constructor(private readonly handler: PDataHandler) {}

  push(chunk: Buffer): void {
    if (this.failed) return;
    try {
      this.consume(chunk);
    } catch (error) {
      this.failed = true;
      this.handler.protocolError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private consume(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.pduLeft === 0) {
        // A PDU header: type, reserved, length (4, big endian).
        const head = this.gather(chunk, at, 6);
        at = head.next;
        if (!head.bytes) return;
        const type = head.bytes.readUInt8(0);
        const length = head.bytes.readUInt32BE(2);
        if (type === P_DATA_TF) {
          if (length === 0) this.completedPdus++;
          this.pduLeft = length;
        } else {
          if (length > MAX_OTHER_PDU_LENGTH)
            throw new Error(`a PDU of type ${type} of ${length} bytes: at most ${MAX_OTHER_PDU_LENGTH}`);
          this.other = [Buffer.from(head.bytes)];
          this.otherLength = 6;
          this.pduLeft = length;
          if (length === 0) this.endOther();
        }
        continue;
      }
      if (this.other) {
        const take = Math.min(this.pduLeft, chunk.length - at);
        this.other.push(chunk.subarray(at, at + take));
        this.otherLength += take;
        this.pduLeft -= take;
        at += take;
        if (this.pduLeft === 0) this.endOther();
        continue;
      }
      if (this.pdvLeft === 0) {
        // A PDV item header: length (4), presentation context id, message control header.
        const head = this.gather(chunk, at, 6);
        this.pduLeft -= head.next - at;
        at = head.next;
        if (!head.bytes) return;
        if (this.pduLeft === 0) this.completedPdus++;
        const length = head.bytes.readUInt32BE(0);
        if (length < 2 || length - 2 > this.pduLeft)
          throw new Error(`PDV of ${length} bytes in a PDU with ${this.pduLeft} bytes left`);
        this.pdvPcid = head.bytes.readUInt8(4);
        this.pdvControl = head.bytes.readUInt8(5);
        this.pdvLeft = length - 2;
        if (this.pdvLeft === 0) this.endPdv();
        continue;
      }
      const take = Math.min(this.pdvLeft, this.pduLeft, chunk.length - at);
      if (take <= 0) throw new Error('PDV runs past the end of its PDU');
      const value = chunk.subarray(at, at + take);
      at += take;
      this.pdvLeft -= take;
      this.pduLeft -= take;
      if (this.pduLeft === 0) this.completedPdus++;
      const isCommand = (this.pdvControl & 0x01) !== 0;
      if (!isCommand && this.mode === 'store') this.handler.storeData(value);
      else this.pdvParts.push(value);
      if (this.pdvLeft === 0) this.endPdv();
    }
  }

  /**
   * The `size`-byte header starting at `at`, possibly completing bytes kept from the previous
   * chunk. `bytes` is undefined when the chunk ended first (what there was is kept).
   */
  private gather(chunk: Buffer, at: number, size: number): { bytes?: Buffer; next: number } {
    if (this.header.length === 0 && chunk.length - at >= size)
      return { bytes: chunk.subarray(at, at + size), next: at + size };
    const need = size - this.header.length;
    const take = Math.min(need, chunk.length - at);
    this.header = Buffer.concat([this.header, chunk.subarray(at, at + take)]);
    if (this.header.length < size) return { next: at + take };
    const bytes = this.header;
    this.header = Buffer.alloc(0);
    return { bytes, next: at + take };
  }

  private endOther(): void {
    this.completedPdus++;
    const pdu = Buffer.concat(this.other!, this.otherLength);
    this.other = undefined;
    this.otherLength = 0;
    this.handler.otherPdu(pdu);
  }

  private endPdv(): void {
    const pcid = this.pdvPcid;
    const control = this.pdvControl;
    const isCommand = (control & 0x01) !== 0;
    const isLast = (control & 0x02) !== 0;
    const parts = this.pdvParts;
    this.pdvParts = [];
    if (isCommand) {
      if (this.mode !== 'command')
        throw new Error('a command PDV arrived before the data set of the previous message ended');
      const value = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      this.commandParts.push(value);
      this.commandPdvs.push({ pcid, control, value });
      if (!isLast) return;
      const commandPdvs = this.commandPdvs;
      const bytes = this.commandParts.length === 1 ? this.commandParts[0]! : Buffer.concat(this.commandParts);
      this.commandParts = [];
      this.commandPdvs = [];
      const command = readCommandSet(bytes);
      const decision = this.handler.command(pcid, command);
      if (decision === 'store' && command.hasDataSet) {
        this.mode = 'store';
        return;
      }
      for (const pdv of commandPdvs) this.handler.forwardPdu(pDataPdu(pdv.pcid, pdv.control, pdv.value));
      if (command.hasDataSet) this.mode = 'forward';
      return;
    }
    if (this.mode === 'store') {
      if (isLast) {
        this.mode = 'command';
        this.handler.storeEnd();
      }
      return;
    }
    if (this.mode === 'forward') {
      const value = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      this.handler.forwardPdu(pDataPdu(pcid, control, value));
      if (isLast) this.mode = 'command';
      return;
    }
    throw new Error('a data PDV arrived without a command');
  }
}
