import { afterAll, beforeAll, describe, it } from 'vitest';
import type { TBrowserSession } from '../support/browser.js';
import { ViewerScreen, corpusCopy, uploadFile } from '../support/viewer.js';
import { openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();

/** One CT per transfer-syntax family of the corpus the browser decodes (issue 5 §6). */
const FAMILIES: [string, string][] = [
  ['JPEG baseline', 'transfer_syntax/ct_jpeg_baseline_process1.dcm'],
  ['JPEG lossless', 'transfer_syntax/ct_jpeg_lossless_process14_sv1.dcm'],
  ['JPEG-LS', 'transfer_syntax/ct_jpegls_lossless.dcm'],
  ['JPEG 2000', 'transfer_syntax/ct_jpeg2000_lossless.dcm'],
  ['RLE', 'transfer_syntax/ct_rle_lossless.dcm'],
  ['big endian', 'transfer_syntax/ct_explicit_vr_be.dcm'],
];

/**
 * The JPEG 2000 CT relabelled as JPEG 2000 Part 2 multi-component (same length UID): stored as it
 * is, and a syntax Cornerstone has no decoder for.
 */
const UNSUPPORTED: [string, string] = ['1.2.840.10008.1.2.4.90', '1.2.840.10008.1.2.4.92'];

/**
 * The JPEG-LS CT relabelled as JPEG baseline (same length UID): the JPEG decoder fails on a JPEG-LS
 * stream, which is what a damaged image looks like to the viewer.
 */
const UNDECODABLE: [string, string] = ['1.2.840.10008.1.2.4.80', '1.2.840.10008.1.2.4.50'];

describe('Viewer: every decodable transfer-syntax family renders', () => {
  const studies = new Map<string, { uid: string; id: number }>();
  let doctor: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn('center@demo.local', { home: false });
    try {
      for (const [family, path] of FAMILIES) {
        const file = corpusCopy(path, `${RUN}-${family}`);
        studies.set(family, { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) });
      }
      const file = corpusCopy('transfer_syntax/ct_jpeg2000_lossless.dcm', `${RUN}-unsupported`, {
        transferSyntax: UNSUPPORTED,
      });
      studies.set('unsupported', { uid: file.studyInstanceUid, id: await uploadFile(center.page, file) });
      const broken = corpusCopy('transfer_syntax/ct_jpegls_lossless.dcm', `${RUN}-broken`, {
        transferSyntax: UNDECODABLE,
      });
      studies.set('broken', { uid: broken.studyInstanceUid, id: await uploadFile(center.page, broken) });
    } finally {
      await center.close();
    }
    doctor = await openSignedIn('doctor@demo.local', { home: false });
  });
  afterAll(async () => {
    await doctor?.close();
  });

  it.each(FAMILIES)('%s shows non-blank pixels', async (family) => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get(family)!;
    await viewer.open(study.uid, study.id);
    await viewer.waitForImage();
    await viewer.expectOverlay(/Img: 1\/1/);
  });

  it('an unsupported syntax shows the placeholder naming it, not a canvas image', async () => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get('unsupported')!;
    await viewer.open(study.uid, study.id);
    const placeholder = viewer.viewport().getByTestId('image-unsupported');
    await placeholder.waitFor();
    await placeholder
      .getByText(/Unsupported transfer syntax: JPEG 2000 Part 2.*1\.2\.840\.10008\.1\.2\.4\.92/)
      .waitFor();
  });

  it('an image that fails to decode shows the placeholder image (spec-core §8)', async () => {
    const viewer = new ViewerScreen(doctor!.page);
    const study = studies.get('broken')!;
    await viewer.open(study.uid, study.id);
    await viewer
      .viewport()
      .getByTestId('image-failed')
      .getByText('This image could not be loaded.')
      .waitFor();
  });
});
