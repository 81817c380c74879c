/**
 * DICOM Basic Grayscale Print Management SCU (PS3.4 Annex H) over dcmjs-dimse, which has the DIMSE-N
 * requests (N-CREATE, N-SET, N-ACTION, N-DELETE) with a Meta SOP Class for the presentation context.
 * One association per film session: N-CREATE Film Session, N-CREATE Film Box (the printer answers
 * the Image Box UIDs), N-SET each Image Box with its pixels, N-ACTION Print, N-DELETE Film Session.
 */
import type * as DcmjsDimseModule from 'dcmjs-dimse';
import dcmjsDimse from 'dcmjs-dimse';

// A CommonJS package: its module.exports is the default import, in Node and in esbuild's bundle
// (a createRequire call is not followed by esbuild, so the packaged router could not load it).
const dimse = dcmjsDimse as unknown as typeof DcmjsDimseModule;

export const PRINT_UIDS = {
  grayscaleMeta: '1.2.840.10008.5.1.1.9',
  filmSession: '1.2.840.10008.5.1.1.1',
  filmBox: '1.2.840.10008.5.1.1.2',
  grayscaleImageBox: '1.2.840.10008.5.1.1.4',
} as const;

/** One film: its boxes in order, each an 8-bit MONOCHROME2 image. */
export interface FilmImage {
  readonly rows: number;
  readonly columns: number;
  /** rows × columns bytes, 0 black … 255 white. */
  readonly pixels: Uint8Array;
}

export interface FilmSessionRequest {
  readonly host: string;
  readonly port: number;
  readonly callingAet: string;
  readonly calledAet: string;
  readonly copies: number;
  /** 'STANDARD\C,R' (PS3.3 C.13.8 Image Display Format). */
  readonly imageDisplayFormat: string;
  readonly filmSizeId: string;
  readonly filmOrientation: 'PORTRAIT' | 'LANDSCAPE';
  readonly mediumType?: string;
  readonly images: readonly FilmImage[];
  readonly timeoutMs?: number;
}

export interface FilmSessionResult {
  /** Each DIMSE step with its status, in order (for the log and the answer). */
  readonly steps: { step: string; status: number }[];
  readonly filmSessionUid: string;
  readonly filmBoxUid: string;
}

export class PrintScuError extends Error {
  override readonly name = 'PrintScuError';
}

/** PS3.7 C: success 0x0000 and warnings 0xB… go on; anything else stops the film. */
const isOk = (status: number) => status === 0 || (status & 0xf000) === 0xb000;
const hex = (status: number) => `0x${status.toString(16).padStart(4, '0')}`;

let configured = false;
function library() {
  if (!configured) {
    configured = true;
    // dcmjs-dimse logs every PDU at info level; packages/dicom's library.ts does the same.
    dimse.log.setLevel('silent');
  }
  return dimse;
}

/** What the steps read of an N-CREATE/N-SET/N-ACTION/N-DELETE response. */
interface Response {
  getStatus(): number;
  getErrorComment(): string;
  getAffectedSopInstanceUid(): string;
  getDataset(): { getElements(): Record<string, unknown> } | undefined;
}

/**
 * Prints one film of `images.length` boxes (≤ the display format's boxes). Resolves when the printer
 * took the print job (N-ACTION succeeded) and the session was deleted; throws {@link PrintScuError}
 * naming the step the printer refused, or the association's failure.
 */
export async function printFilmSession(request: FilmSessionRequest): Promise<FilmSessionResult> {
  const lib = library();
  const { NCreateRequest, NSetRequest, NActionRequest, NDeleteRequest } = lib.requests;
  const { Dataset } = lib;
  const uid = () => newUid();
  let filmSessionUid = uid();
  let filmBoxUid = uid();
  const steps: { step: string; status: number }[] = [];
  let failure: string | undefined;

  const client = new lib.Client();
  const session = new NCreateRequest(PRINT_UIDS.filmSession, filmSessionUid, PRINT_UIDS.grayscaleMeta);
  session.setDataset(
    new Dataset({
      NumberOfCopies: String(request.copies),
      PrintPriority: 'MED',
      MediumType: request.mediumType ?? 'BLUE FILM',
      FilmDestination: 'MAGAZINE',
    }),
  );
  const filmBox = new NCreateRequest(PRINT_UIDS.filmBox, filmBoxUid, PRINT_UIDS.grayscaleMeta);
  const filmBoxDataset = () =>
    new Dataset({
      ImageDisplayFormat: request.imageDisplayFormat,
      FilmOrientation: request.filmOrientation,
      FilmSizeID: request.filmSizeId,
      ReferencedFilmSessionSequence: [
        { ReferencedSOPClassUID: PRINT_UIDS.filmSession, ReferencedSOPInstanceUID: filmSessionUid },
      ],
    });
  filmBox.setDataset(filmBoxDataset());
  const imageBoxes = request.images.map((image, index) => {
    const set = new NSetRequest(PRINT_UIDS.grayscaleImageBox, '', PRINT_UIDS.grayscaleMeta);
    set.setDataset(
      new Dataset({
        ImageBoxPosition: index + 1,
        BasicGrayscaleImageSequence: [
          {
            SamplesPerPixel: 1,
            PhotometricInterpretation: 'MONOCHROME2',
            Rows: image.rows,
            Columns: image.columns,
            PixelAspectRatio: '1\\1',
            BitsAllocated: 8,
            BitsStored: 8,
            HighBit: 7,
            PixelRepresentation: 0,
            PixelData: [toArrayBuffer(image.pixels)],
            // 8-bit pixels: OB (dcmjs cannot tell the VR of a value it did not read).
            _vrMap: { PixelData: 'OB' },
          },
        ],
      }),
    );
    return set;
  });
  const print = new NActionRequest(PRINT_UIDS.filmBox, filmBoxUid, 1, PRINT_UIDS.grayscaleMeta);
  const remove = new NDeleteRequest(PRINT_UIDS.filmSession, filmSessionUid, PRINT_UIDS.grayscaleMeta);

  const track = (
    name: string,
    req: { on(event: 'response', listener: (response: Response) => void): void },
    then?: (response: Response) => void,
  ) => {
    req.on('response', (response: Response) => {
      const status = response.getStatus();
      steps.push({ step: name, status });
      if (failure) return;
      if (!isOk(status)) {
        const comment = response.getErrorComment();
        failure = `${name}: the printer answered ${hex(status)}${comment ? ` (${comment})` : ''}`;
        // The later steps would act on what does not exist: end the association here.
        client.abort();
        return;
      }
      then?.(response);
    });
  };
  track('N-CREATE Film Session', session, (response) => {
    // The printer may assign the UID itself (PS3.4 H.4.1.2.1.2).
    const assigned = response.getAffectedSopInstanceUid();
    if (assigned && assigned !== filmSessionUid) {
      filmSessionUid = assigned;
      filmBox.setDataset(filmBoxDataset());
      remove.setRequestedSopInstanceUid(assigned);
    }
  });
  track('N-CREATE Film Box', filmBox, (response) => {
    const assigned = response.getAffectedSopInstanceUid();
    if (assigned && assigned !== filmBoxUid) {
      filmBoxUid = assigned;
      print.setRequestedSopInstanceUid(assigned);
    }
    const boxes = (response.getDataset()?.getElements().ReferencedImageBoxSequence ?? []) as {
      ReferencedSOPInstanceUID?: string;
    }[];
    if (boxes.length < imageBoxes.length) {
      failure = `N-CREATE Film Box: the printer made ${boxes.length} image boxes for ${imageBoxes.length} images`;
      client.abort();
      return;
    }
    imageBoxes.forEach((set, index) =>
      set.setRequestedSopInstanceUid(boxes[index]?.ReferencedSOPInstanceUID ?? ''),
    );
  });
  imageBoxes.forEach((set, index) => track(`N-SET Image Box ${index + 1}`, set));
  track('N-ACTION Print', print);
  track('N-DELETE Film Session', remove);
  for (const req of [session, filmBox, ...imageBoxes, print, remove]) client.addRequest(req);

  const name = `${request.calledAet}@${request.host}:${request.port}`;
  await new Promise<void>((resolve) => {
    let accepted = false;
    client.on('associationAccepted', () => {
      accepted = true;
    });
    client.on('associationRejected', (details: { result: number; source: number; reason: number }) => {
      failure ??= `${name} rejected the association (result ${details.result}, source ${details.source}, reason ${details.reason})`;
    });
    client.on('networkError', (error: Error) => {
      failure ??= `${name}: ${error.message}`;
    });
    client.on('closed', () => {
      if (!accepted) failure ??= `${name}: connection closed before the association`;
      resolve();
    });
    const timeout = request.timeoutMs ?? 60_000;
    client.send(request.host, request.port, request.callingAet, request.calledAet, {
      connectTimeout: timeout,
      associationTimeout: timeout,
      pduTimeout: timeout,
    });
  });
  if (failure) throw new PrintScuError(failure);
  // dcmjs-dimse skips a request whose presentation context the peer did not accept, silently.
  if (steps.length === 0)
    throw new PrintScuError(
      `${name} did not accept Basic Grayscale Print Management (${PRINT_UIDS.grayscaleMeta}): is it a DICOM printer?`,
    );
  const printed = steps.find((s) => s.step === 'N-ACTION Print');
  if (!printed)
    throw new PrintScuError(
      `${name}: the print job got no answer (steps: ${steps.map((s) => s.step).join(', ')})`,
    );
  return { steps, filmSessionUid, filmBoxUid };
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  // DICOM values are even: an odd-sized image gets one pad byte.
  const length = bytes.length + (bytes.length % 2);
  const copy = new Uint8Array(length);
  copy.set(bytes);
  return copy.buffer;
}

/** A UID under the UUID-derived root 2.25 (PS3.5 §B.2): no registered root needed. */
function newUid(): string {
  const hexDigits = crypto.randomUUID().replace(/-/g, '');
  return `2.25.${BigInt(`0x${hexDigits}`).toString()}`;
}
