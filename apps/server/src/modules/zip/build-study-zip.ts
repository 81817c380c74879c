import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { anonymizePart10 } from '@radflow/dicom';
import type { TZipVariant } from '@radflow/core';
import type { AppContext } from '../../context.js';
import { instances, series, studies } from '../../db/schema.js';
import { UniqueNames, readmeText, seriesFolderName, sanitizeSegment, studyFolderName } from './zip-layout.js';
import { anonymizationSecret } from './zip-secrets.js';
import { StoredZipWriter } from './stored-zip.js';

/** Where the zip of a report and variant lives in the blob store. */
export const zipBlobKey = (reportStatusId: number, variant: TZipVariant) =>
  `zips/${reportStatusId}/${variant}.zip`;

export interface TZipProgress {
  numberOfFiles: number;
  completedFiles: number;
  totalBytes: number;
  completedBytes: number;
}

/** Files up to this size are read whole (one CRC call and one write each); larger ones stream. */
const WHOLE_READ_MAX_BYTES = 8 * 2 ** 20;
/** Reads of the next files run while the current one is written, up to this many bytes. */
const READ_AHEAD_BYTES = 8 * 2 ** 20;

/**
 * The next files' bytes, read ahead in order within a byte budget so that disk reads overlap the
 * zip's writes while memory stays bounded. A file above WHOLE_READ_MAX_BYTES gets null (the caller
 * streams it), except for the anonymiser, which needs every file whole.
 */
class ReadAhead {
  private readonly pending: Array<{ size: number; data: Promise<Buffer> | null }> = [];
  private nextIndex = 0;
  private bytesAhead = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly files: ReadonlyArray<{ blobKey: string; sizeBytes: number }>,
    private readonly readAll: boolean,
  ) {
    this.fill();
  }

  private fill(): void {
    while (this.nextIndex < this.files.length) {
      const file = this.files[this.nextIndex]!;
      const whole = this.readAll || file.sizeBytes <= WHOLE_READ_MAX_BYTES;
      const size = whole ? file.sizeBytes : 0;
      if (this.pending.length > 0 && this.bytesAhead + size > READ_AHEAD_BYTES) return;
      const data = whole ? this.ctx.blobs.read(file.blobKey) : null;
      // Awaited in turn by next(); a read left behind by a failure must not be unhandled.
      data?.catch(() => undefined);
      this.pending.push({ size, data });
      this.bytesAhead += size;
      this.nextIndex++;
    }
  }

  async next(): Promise<Buffer | null> {
    const item = this.pending.shift();
    if (!item) throw new Error('read past the last file');
    try {
      return await item.data;
    } finally {
      this.bytesAhead -= item.size;
      this.fill();
    }
  }

  cancel(): void {
    this.nextIndex = this.files.length;
    this.pending.length = 0;
  }
}

/**
 * Streams every instance of a study into a stored (uncompressed: DICOM pixel data barely compresses
 * and stored entries cost no CPU) zip in the blob store, one file at a time, so memory stays flat
 * whatever the study's size (ARCHITECTURE §5). The anonymised variant runs each file through the
 * PS3.15 profile with the group's secret (UIDs remap the same way in every zip of the group).
 * The blob appears only once complete (moved into the store by rename).
 */
export async function buildStudyZip(
  ctx: AppContext,
  opts: {
    reportStatusId: number;
    studyId: number;
    variant: TZipVariant;
    onProgress?: (progress: TZipProgress) => void;
  },
): Promise<{ blobKey: string; sizeBytes: number; patientName: string }> {
  const [study] = await ctx.db.select().from(studies).where(eq(studies.id, opts.studyId));
  if (!study) throw new Error(`Study ${opts.studyId} does not exist`);
  const rows = await ctx.db
    .select({
      blobKey: instances.blobKey,
      sizeBytes: instances.sizeBytes,
      sopInstanceUid: instances.sopInstanceUid,
      instanceNumber: instances.instanceNumber,
      seriesId: instances.seriesId,
      seriesNumber: series.seriesNumber,
      seriesDescription: series.seriesDescription,
    })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(eq(instances.studyId, opts.studyId))
    .orderBy(asc(series.seriesNumber), asc(series.id), asc(instances.instanceNumber), asc(instances.id));

  const isAnonymized = opts.variant === 'ANONYMIZED';
  const secret = isAnonymized ? await anonymizationSecret(ctx, study.groupId) : null;
  const root = studyFolderName({ ...study, reportStatusId: opts.reportStatusId, isAnonymized });

  // Folder and file names, unique within the zip.
  const seriesFolders = new Map<number, string>();
  const folderNames = new UniqueNames();
  const fileNames = new Map<number, UniqueNames>();
  const named = rows.map((row, index) => {
    let folder = seriesFolders.get(row.seriesId);
    if (!folder) {
      folder = folderNames.take(seriesFolderName(row));
      seriesFolders.set(row.seriesId, folder);
    }
    let files = fileNames.get(row.seriesId);
    if (!files) fileNames.set(row.seriesId, (files = new UniqueNames()));
    const base = sanitizeSegment(String(row.instanceNumber ?? index + 1), String(index + 1));
    return { ...row, name: `${root}/${folder}/${files.take(base, '.dcm')}` };
  });

  const progress: TZipProgress = {
    numberOfFiles: rows.length,
    completedFiles: 0,
    totalBytes: rows.reduce((sum, r) => sum + r.sizeBytes, 0),
    completedBytes: 0,
  };
  opts.onProgress?.({ ...progress });

  const blobKey = zipBlobKey(opts.reportStatusId, opts.variant);
  // Written to a temp file and moved in (putFile) rather than blobs.put: the zip needs no content
  // hash, which would cost a second pass over every byte. Synced before the move, so a COMPLETED
  // run never points at a torn file after a crash.
  const tempPath = path.join(ctx.blobs.tempDir(), `zip-${randomUUID()}`);
  const handle = await open(tempPath, 'w');
  const zip = new StoredZipWriter(handle);
  const skipped: string[] = [];
  const reads = new ReadAhead(ctx, named, isAnonymized);
  try {
    for (const file of named) {
      const data = await reads.next();
      if (secret) {
        let anonymized: Uint8Array | null = null;
        try {
          anonymized = anonymizePart10(data as Buffer, secret);
        } catch {
          skipped.push(file.name);
        }
        if (anonymized) {
          await zip.addBuffer(
            file.name,
            Buffer.from(anonymized.buffer, anonymized.byteOffset, anonymized.byteLength),
            study.createdAt,
          );
        }
      } else if (data) {
        await zip.addBuffer(file.name, data, study.createdAt);
      } else {
        await zip.addStream(file.name, () => ctx.blobs.get(file.blobKey), study.createdAt);
      }
      progress.completedFiles++;
      progress.completedBytes += file.sizeBytes;
      opts.onProgress?.({ ...progress });
    }
    const readme = readmeText({
      reportStatusId: opts.reportStatusId,
      patientName: study.patientName,
      studyDate: study.studyDate,
      studyDescription: study.studyDescription,
      instanceCount: rows.length - skipped.length,
      seriesCount: seriesFolders.size,
      isAnonymized,
      createdAt: ctx.now(),
      skipped,
    });
    await zip.addBuffer(`${root}/README.txt`, Buffer.from(readme, 'utf8'), study.createdAt);
    await zip.finish();
    await handle.sync();
    await handle.close();
    const { sizeBytes } = await ctx.blobs.putFile(blobKey, tempPath);
    return { blobKey, sizeBytes, patientName: isAnonymized ? '' : study.patientName };
  } catch (error) {
    reads.cancel();
    await handle.close().catch(() => undefined);
    await rm(tempPath, { force: true });
    throw error;
  }
}
