import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildImage,
  packBits,
  withPrivateUnSequence,
  type TestImage,
} from '../../packages/dicom/src/test-builders.js';
import { parseInstance } from '../../packages/dicom/src/parse.js';
import type { TBrowserSession } from '../support/browser.js';
import { eventually } from '../support/pages.js';
import { ViewerScreen, corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

/**
 * Issue 21 §2 in the browser: a native YBR_FULL_422 ultrasound frame, a SEG-like 1-bit image in
 * Deflated Image Frame Compression and in big endian, and a big-endian CT with undefined-length
 * sequences (and a private UN sequence, CP-246) are stored and drawn with their pixels.
 */

const RUN = uniqueTag();
const hasDcmtk = (() => {
  try {
    execFileSync('dcmconv', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const SIZE = 64;
/** Left half one value, right half another: what the canvas should show on each side. */
const halves = <T>(left: T, right: T): T[] =>
  Array.from({ length: SIZE * SIZE }, (_, i) => (i % SIZE < SIZE / 2 ? left : right));

/** Native YBR_FULL_422: left half red, right half blue (Y1 Y2 Cb Cr per pair of pixels). */
const RED_YBR = [76, 85, 255];
const BLUE_YBR = [29, 255, 107];
const ybr422: TestImage = {
  rows: SIZE,
  columns: SIZE,
  samplesPerPixel: 3,
  photometricInterpretation: 'YBR_FULL_422',
  planarConfiguration: 0,
  bitsAllocated: 8,
  modality: 'US',
  sopClassUid: '1.2.840.10008.5.1.4.1.1.6.1',
  frames: [
    Uint8Array.from(
      Array.from({ length: (SIZE * SIZE) / 2 }, (_, pair) => {
        const [y, cb, cr] = (pair % (SIZE / 2) < SIZE / 4 ? RED_YBR : BLUE_YBR) as number[];
        return [y, y, cb, cr] as number[];
      }).flat(),
    ),
  ],
};

/** 1-bit, left half set: drawn white on the left, black on the right. */
const mask = (transferSyntaxUid?: string): TestImage => ({
  rows: SIZE,
  columns: SIZE,
  samplesPerPixel: 1,
  photometricInterpretation: 'MONOCHROME2',
  bitsAllocated: 1,
  modality: 'OT',
  frames: [packBits(halves(1, 0)), packBits(halves(0, 1))],
  ...(transferSyntaxUid ? { transferSyntaxUid } : {}),
});

function asUpload(bytes: Uint8Array, name: string) {
  return {
    name,
    mimeType: 'application/dicom',
    buffer: Buffer.from(bytes),
    studyInstanceUid: parseInstance(bytes).studyInstanceUid,
  };
}

function dcmconvBigEndian(bytes: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'radflow-e2e-be-'));
  try {
    writeFileSync(join(dir, 'in.dcm'), bytes);
    execFileSync('dcmconv', ['+tb', '-e', join(dir, 'in.dcm'), join(dir, 'out.dcm')], { stdio: 'pipe' });
    return new Uint8Array(readFileSync(join(dir, 'out.dcm')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The colour of the viewport's canvas at a point relative to the drawn image's middle row. */
async function colourAt(viewport: Locator, x: number): Promise<[number, number, number]> {
  return viewport
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement, at: number) => {
      const context = canvas.getContext('2d');
      if (!context) return [0, 0, 0] as [number, number, number];
      const [r, g, b] = context.getImageData(
        Math.round(canvas.width * at),
        Math.round(canvas.height / 2),
        1,
        1,
      ).data;
      return [r ?? 0, g ?? 0, b ?? 0] as [number, number, number];
    }, x);
}

/** Waits until the canvas shows `left` at 40 % and `right` at 60 % of its width (±24 per channel). */
async function expectSides(viewport: Locator, left: number[], right: number[]) {
  const near = (got: number[], want: number[]) =>
    got.every((v, i) => Math.abs(v - (want[i] as number)) <= 24);
  await eventually(async () => {
    const [l, r] = await Promise.all([colourAt(viewport, 0.4), colourAt(viewport, 0.6)]);
    return near(l, left) && near(r, right) ? 'both' : `left ${l.join(',')} right ${r.join(',')}`;
  }, "the viewport shows the image's two halves").toBe('both');
}

describe.skipIf(!hasDcmtk)('Viewer: pixel layouts Cornerstone alone drew wrong (issue 21 §2)', () => {
  const studies = new Map<string, { uid: string; id: number }>();
  let doctor: TBrowserSession | undefined;

  beforeAll(async () => {
    const files: Array<[string, ReturnType<typeof asUpload>]> = [
      ['ybr422', asUpload(buildImage(ybr422).bytes, 'us-ybr422.dcm')],
      ['deflated-mask', asUpload(buildImage(mask('1.2.840.10008.1.2.8.1')).bytes, 'mask-deflated.dcm')],
      ['big-endian-mask', asUpload(dcmconvBigEndian(buildImage(mask()).bytes), 'mask-be.dcm')],
    ];
    files.push([
      'ybr-rct',
      asUpload(
        buildImage({
          ...ybr422,
          photometricInterpretation: 'YBR_RCT',
          frames: [new Uint8Array(SIZE * SIZE * 3)],
        }).bytes,
        'rct.dcm',
      ),
    ]);
    const ct = corpusCopy('ct/study_liver/ct_liver_01.dcm', `${RUN}-be`);
    const bigEndianCt = withPrivateUnSequence(dcmconvBigEndian(ct.buffer));
    files.push(['big-endian-ct', asUpload(bigEndianCt, 'ct-be.dcm')]);
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      for (const [key, file] of files) {
        studies.set(key, { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) });
      }
    } finally {
      await center.close();
    }
    doctor = await openSignedIn('doctor@demo.local', { home: false });
  });
  afterAll(async () => {
    await doctor?.close();
  });

  const open = async (key: string) => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get(key)!;
    await viewer.open(study.uid, study.id);
    return viewer;
  };

  it('a native YBR_FULL_422 ultrasound draws in colour: red left, blue right', async () => {
    const viewer = await open('ybr422');
    await viewer.waitForImage();
    await expectSides(viewer.viewport(), [254, 0, 0], [0, 0, 254]);
  });

  it('a 1-bit image in Deflated Image Frame Compression draws its mask, both frames in the stack', async () => {
    const viewer = await open('deflated-mask');
    await viewer.waitForImage();
    await expectSides(viewer.viewport(), [255, 255, 255], [0, 0, 0]);
    await viewer.expectOverlay(/Img: 1\/2/);
  });

  it('a 1-bit image in explicit VR big endian (undefined lengths) draws its mask', async () => {
    const viewer = await open('big-endian-mask');
    await viewer.waitForImage();
    await expectSides(viewer.viewport(), [255, 255, 255], [0, 0, 0]);
  });

  it('a native frame labelled YBR_RCT (JPEG 2000 only) shows the unsupported placeholder naming it', async () => {
    const viewer = await open('ybr-rct');
    const placeholder = viewer.viewport().getByTestId('image-unsupported');
    await placeholder
      .getByText(/Unsupported image: Photometric Interpretation YBR_RCT exists only in JPEG 2000/)
      .waitFor();
  });

  it('a big-endian CT with undefined-length and UN sequences is stored and draws', async () => {
    const viewer = await open('big-endian-ct');
    const pixels = await viewer.waitForImage();
    expect(pixels.lit / pixels.total).toBeGreaterThan(0.05);
    await viewer.expectOverlay(/Img: 1\/1/);
  });
});
