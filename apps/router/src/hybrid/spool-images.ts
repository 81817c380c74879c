/**
 * The images of the studies the router holds, read from its spool for the offline viewer (HYBRID.md
 * "The viewer offline"): the DICOM JSON of each instance (what QIDO-RS and WADO-RS metadata answer),
 * a frame's bytes as stored, and a frame rendered to JPEG. Parsing, frames, decoding and the grey
 * levels are packages/dicom's (the cloud's own code), so an image looks the same on both sides.
 *
 * A study's instances are parsed once and kept until its file list changes (a new instance, a
 * delete); a file deleted between the listing and the read is left out (the cloud has it).
 */
import { readFile } from 'node:fs/promises';
import { encodeJpeg, fitInside } from '../image-lib.js';
import { AppError, type TRenderViewport, type TRenderWindow } from '@radflow/core';
import {
  FrameDecodeError,
  decodeFrame,
  extractFrame,
  parseInstance,
  toDicomJson,
  toDisplayImage,
  type DicomJsonDataset,
  type ParsedInstance,
} from '@radflow/dicom';

export const MESSAGE_IMAGES_NOT_ON_ROUTER = 'The router holds no images of this study';
export const MESSAGE_INSTANCE_NOT_ON_ROUTER = 'The router holds no such instance of this study';
export const MESSAGE_NOT_AN_IMAGE = 'This instance has no image to show';

/** DICOM JSON tags the QIDO answers are made of. */
const TAG = {
  studyDate: '00080020',
  availableTransferSyntax: '00083002',
  modality: '00080060',
  modalitiesInStudy: '00080061',
  studyDescription: '00081030',
  seriesDescription: '0008103E',
  patientName: '00100010',
  patientId: '00100020',
  studyUid: '0020000D',
  seriesUid: '0020000E',
  seriesNumber: '00200011',
  studyRelatedSeries: '00201206',
  studyRelatedInstances: '00201208',
  seriesRelatedInstances: '00201209',
} as const;

export interface SpoolInstance {
  readonly path: string;
  readonly seriesInstanceUid: string;
  readonly sopInstanceUid: string;
  readonly transferSyntaxUid: string;
  readonly numberOfFrames: number;
  /** PS3.18 F.2 of the instance, bulk data (pixels) left out, with its stored transfer syntax. */
  readonly metadata: DicomJsonDataset;
}

/** The spool's study files (the queue's `studyFiles`). */
export type StudyFilesOf = (studyInstanceUid: string) => readonly string[] | undefined;

const copy = (from: DicomJsonDataset, tags: readonly string[]): DicomJsonDataset => {
  const out: DicomJsonDataset = {};
  for (const tag of tags) {
    const element = from[tag];
    if (element) out[tag] = element;
  }
  return out;
};

const count = (value: number): DicomJsonDataset[string] => ({ vr: 'IS', Value: [value] });

export class SpoolImages {
  private readonly studies = new Map<string, { key: string; instances: Promise<SpoolInstance[]> }>();

  constructor(private readonly filesOf: StudyFilesOf) {}

  /** The study's instances, or NOT_FOUND when the router holds none. */
  async instances(studyInstanceUid: string): Promise<SpoolInstance[]> {
    const files = this.filesOf(studyInstanceUid) ?? [];
    const key = [...files].sort().join('\n');
    let cached = this.studies.get(studyInstanceUid);
    if (!cached || cached.key !== key) {
      cached = { key, instances: readInstances(files) };
      this.studies.set(studyInstanceUid, cached);
      // A failed read is not kept: the next request reads again.
      cached.instances.catch(() => this.studies.delete(studyInstanceUid));
    }
    const instances = await cached.instances;
    if (instances.length === 0) throw new AppError('NOT_FOUND', MESSAGE_IMAGES_NOT_ON_ROUTER);
    return instances;
  }

  /** QIDO-RS study level, for one study (the viewer asks for no other search). */
  async study(studyInstanceUid: string): Promise<DicomJsonDataset> {
    const instances = await this.instances(studyInstanceUid);
    const first = instances[0]!.metadata;
    const modalities = [
      ...new Set(
        instances.map((i) => i.metadata[TAG.modality]?.Value?.[0]).filter((m) => typeof m === 'string'),
      ),
    ];
    return {
      ...copy(first, [TAG.studyDate, TAG.studyDescription, TAG.patientName, TAG.patientId, TAG.studyUid]),
      [TAG.modalitiesInStudy]: { vr: 'CS', Value: modalities },
      [TAG.studyRelatedSeries]: count(new Set(instances.map((i) => i.seriesInstanceUid)).size),
      [TAG.studyRelatedInstances]: count(instances.length),
    };
  }

  /** QIDO-RS series level of the study. */
  async series(studyInstanceUid: string): Promise<DicomJsonDataset[]> {
    const bySeries = new Map<string, SpoolInstance[]>();
    for (const instance of await this.instances(studyInstanceUid)) {
      const list = bySeries.get(instance.seriesInstanceUid) ?? [];
      list.push(instance);
      bySeries.set(instance.seriesInstanceUid, list);
    }
    return [...bySeries.values()].map((list) => ({
      ...copy(list[0]!.metadata, [
        TAG.studyUid,
        TAG.seriesUid,
        TAG.modality,
        TAG.seriesDescription,
        TAG.seriesNumber,
      ]),
      [TAG.seriesRelatedInstances]: count(list.length),
    }));
  }

  /** The series' instances (QIDO-RS instance level and WADO-RS series metadata: the full data sets). */
  async seriesInstances(studyInstanceUid: string, seriesInstanceUid: string): Promise<SpoolInstance[]> {
    const found = (await this.instances(studyInstanceUid)).filter(
      (i) => i.seriesInstanceUid === seriesInstanceUid,
    );
    if (found.length === 0) throw new AppError('NOT_FOUND', MESSAGE_INSTANCE_NOT_ON_ROUTER);
    return found;
  }

  async instance(studyInstanceUid: string, seriesInstanceUid: string, sopInstanceUid: string) {
    const found = (await this.seriesInstances(studyInstanceUid, seriesInstanceUid)).find(
      (i) => i.sopInstanceUid === sopInstanceUid,
    );
    if (!found) throw new AppError('NOT_FOUND', MESSAGE_INSTANCE_NOT_ON_ROUTER);
    return found;
  }

  /** One frame (1-based) in its stored transfer syntax, as WADO-RS RetrieveFrames sends it. */
  async frame(
    target: { study: string; series: string; sop: string },
    frameNumber: number,
  ): Promise<{ bytes: Uint8Array; transferSyntaxUid: string }> {
    const instance = await this.instance(target.study, target.series, target.sop);
    const { bytes, parsed } = await this.read(instance, frameNumber);
    return {
      bytes: extractFrame(bytes, parsed, frameNumber - 1),
      transferSyntaxUid: instance.transferSyntaxUid,
    };
  }

  /**
   * One frame (1-based) decoded, windowed (its own window unless one is asked) and encoded as JPEG,
   * fitted inside `viewport` without enlarging: what the light viewer draws. A syntax the decoders
   * lack is 406 naming it.
   */
  async rendered(
    target: { study: string; series: string; sop: string },
    frameNumber: number,
    options: { viewport?: TRenderViewport | undefined; window?: TRenderWindow | undefined } = {},
  ): Promise<Buffer> {
    const instance = await this.instance(target.study, target.series, target.sop);
    const { bytes, parsed } = await this.read(instance, frameNumber);
    const image = parsed.image!;
    const pixelTag = parsed.pixelData!.tag;
    try {
      const decoded = await decodeFrame({
        transferSyntaxUid: instance.transferSyntaxUid,
        bytes: extractFrame(bytes, parsed, frameNumber - 1),
        rows: image.rows,
        columns: image.columns,
        bitsAllocated: image.bitsAllocated ?? (pixelTag === 'x7fe00009' ? 64 : 32),
        samplesPerPixel: image.samplesPerPixel,
        pixelRepresentation: image.pixelRepresentation ?? 0,
        photometricInterpretation: image.photometricInterpretation ?? 'MONOCHROME2',
        planarConfiguration: image.planarConfiguration,
      });
      const readElement = async (tag: string) => {
        const element = parsed.dataSet.elements[`x${tag.toLowerCase()}`];
        return element
          ? parsed.datasetBytes.subarray(element.dataOffset, element.dataOffset + element.length)
          : null;
      };
      const raw = await toDisplayImage(
        decoded,
        frameNumber - 1,
        instance.metadata,
        readElement,
        pixelTag !== 'x7fe00010',
        options.window ?? null,
      );
      const display = { width: raw.width, height: raw.height, channels: raw.channels, pixels: raw.data };
      const shown = options.viewport
        ? fitInside(display, options.viewport.width, options.viewport.height)
        : display;
      return Buffer.from((await encodeJpeg(shown, 90)).bytes);
    } catch (error) {
      if (error instanceof FrameDecodeError) {
        throw new AppError('NOT_ACCEPTABLE', `The router cannot render this image: ${error.message}`);
      }
      throw error;
    }
  }

  private async read(instance: SpoolInstance, frameNumber: number) {
    if (!Number.isInteger(frameNumber) || frameNumber < 1 || frameNumber > instance.numberOfFrames) {
      throw new AppError(
        instance.numberOfFrames === 0 ? 'NOT_ACCEPTABLE' : 'NOT_FOUND',
        instance.numberOfFrames === 0
          ? MESSAGE_NOT_AN_IMAGE
          : `Frame ${frameNumber} not found: the instance has ${instance.numberOfFrames} frame(s)`,
      );
    }
    const bytes = await readFile(instance.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new AppError('NOT_FOUND', MESSAGE_INSTANCE_NOT_ON_ROUTER);
      throw error;
    });
    const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { bytes: data, parsed: parseInstance(data) };
  }
}

async function readInstances(files: readonly string[]): Promise<SpoolInstance[]> {
  const out: SpoolInstance[] = [];
  for (const path of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      // Deleted after the listing (delete-uploaded-study): the cloud has it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const parsed: ParsedInstance = parseInstance(
      new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
    const metadata = toDicomJson(parsed);
    metadata[TAG.availableTransferSyntax] = { vr: 'UI', Value: [parsed.transferSyntaxUid] };
    out.push({
      path,
      seriesInstanceUid: parsed.seriesInstanceUid,
      sopInstanceUid: parsed.sopInstanceUid,
      transferSyntaxUid: parsed.transferSyntaxUid,
      numberOfFrames: parsed.pixelData && parsed.image ? parsed.image.numberOfFrames : 0,
      metadata,
    });
  }
  return out;
}
