/**
 * The router's C-STORE SCP (issue 27 §1): the modalities' AE titles from the config, every instance
 * acknowledged only once the queue has it fsynced (file and journal record). The SCP writes an
 * instance's temp file inside the spool (same file system: the queue renames it into place) and
 * hashes it as it arrives; that sha256 is what the upload later checks the file against.
 *
 * A full disk quota: a new association is refused (A-ASSOCIATE-RJ transient, temporary
 * congestion: the modality queues and retries later), and an instance that does not fit on an open
 * association is answered 0xA700 Refused: Out of Resources with the reason — never acknowledged,
 * so the modality keeps it. Nothing already acknowledged is ever removed to make room.
 */
import { open } from 'node:fs/promises';
import {
  DimseStatus,
  startStoreScp,
  type StoreScp,
  type ReceivedInstance,
  type StoreOutcome,
} from '@radflow/dicom/dimse';
import type { ModalityAe } from '../config.js';
import { readInstanceHeader, type InstanceQueue, type TInstanceHeader } from '../queue/queue.js';

export interface DicomReceiverOptions {
  readonly aeTitle: string;
  readonly host: string;
  readonly port: number;
  /** Allowed calling AE titles; empty: any. */
  readonly modalities: readonly ModalityAe[];
  readonly log?: (message: string, fields?: Record<string, unknown>) => void;
}

export const QUOTA_FULL_COMMENT = 'Router disk quota full: not stored';

/** Reads an instance's header from its bytes or, for a large one, from the head of its file. */
async function headerOf(instance: ReceivedInstance): Promise<TInstanceHeader> {
  if (instance.bytes) return readInstanceHeader(instance.bytes, instance.callingAet);
  const handle = await open(instance.filePath!, 'r');
  try {
    // The tags the queue reads come before the pixel data; 1 MB holds them in any real header.
    for (const size of [1 << 20, instance.size]) {
      const buffer = Buffer.alloc(Math.min(size, instance.size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      try {
        return readInstanceHeader(buffer.subarray(0, bytesRead), instance.callingAet);
      } catch (error) {
        if (bytesRead >= instance.size) throw error;
      }
    }
    throw new Error('unreachable');
  } finally {
    await handle.close();
  }
}

export async function startDicomReceiver(
  queue: InstanceQueue,
  options: DicomReceiverOptions,
): Promise<StoreScp> {
  const byAe = new Map(options.modalities.map((m) => [m.aeTitle, m]));
  return startStoreScp({
    aeTitle: options.aeTitle,
    host: options.host,
    port: options.port,
    tempDir: queue.tempDir,
    sha256WhileReceiving: true,
    onAssociation: (callingAet) => {
      if (byAe.size > 0 && !byAe.has(callingAet.trim())) return 'reject-calling-aet';
      if (queue.diskUsage().full) {
        options.log?.('association refused: disk quota full', { callingAet });
        return 'busy';
      }
      return 'accept';
    },
    onInstance: async (instance): Promise<StoreOutcome> => {
      let header: TInstanceHeader;
      try {
        header = await headerOf(instance);
      } catch (error) {
        return {
          status: DimseStatus.CannotUnderstand,
          errorComment: `Not readable: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      if (header.sopInstanceUid !== instance.sopInstanceUid) {
        return {
          status: DimseStatus.DataSetDoesNotMatchSopClass,
          errorComment: 'SOP Instance UID differs from the command',
        };
      }
      const modality = byAe.get(instance.callingAet.trim());
      const marked = modality?.urgent ? { ...header, priority: 'STAT' } : header;
      const sha256 = instance.sha256;
      if (!sha256) throw new Error('The SCP gave no sha256');
      const result = await queue.accept(
        marked,
        instance.filePath ? { path: instance.filePath } : { bytes: instance.bytes! },
        sha256,
        instance.size,
        'dimse',
      );
      if (result.status === 'refused') {
        return {
          status: DimseStatus.OutOfResources,
          errorComment: result.quotaFull ? QUOTA_FULL_COMMENT : result.reason,
        };
      }
      return { status: DimseStatus.Success };
    },
  });
}
