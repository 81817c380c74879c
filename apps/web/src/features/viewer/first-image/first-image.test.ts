import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TDicomJson } from '../data-source/dicom-json';
import { firstImageState, startFirstImage } from './first-image';

/**
 * The first image's two ways in: the server's one answer, and DICOMweb (series list → metadata →
 * frame) when the server behind the viewer has no such answer. Both must name the same slice.
 */

const ORIGIN = 'http://localhost';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

const slice = (sop: string, instanceNumber: number): TDicomJson => ({
  '00080018': { vr: 'UI', Value: [sop] },
  '00080060': { vr: 'CS', Value: ['CT'] },
  '00200013': { vr: 'IS', Value: [instanceNumber] },
  '00280002': { vr: 'US', Value: [1] },
  '00280004': { vr: 'CS', Value: ['MONOCHROME2'] },
  '00280010': { vr: 'US', Value: [1] },
  '00280011': { vr: 'US', Value: [4] },
  '00280100': { vr: 'US', Value: [16] },
  '00280101': { vr: 'US', Value: [16] },
  '00280102': { vr: 'US', Value: [15] },
  '00280103': { vr: 'US', Value: [1] },
  '7FE00010': { vr: 'OW', BulkDataURI: `${ORIGIN}/bulk/${sop}` },
});
const seriesOf = (uid: string, seriesNumber: number): TDicomJson => ({
  '0020000E': { vr: 'UI', Value: [uid] },
  '00200011': { vr: 'IS', Value: [seriesNumber] },
  '00080060': { vr: 'CS', Value: ['CT'] },
  '00201209': { vr: 'IS', Value: [2] },
});
const FRAME = new Uint8Array(new Int16Array([0, 100, 200, 300]).buffer);

function multipart(parts: Array<{ type: string; bytes: Uint8Array }>): { body: Uint8Array; type: string } {
  const chunks: Uint8Array[] = [];
  const text = (s: string) => new TextEncoder().encode(s);
  for (const part of parts)
    chunks.push(text(`--b\r\nContent-Type: ${part.type}\r\n\r\n`), part.bytes, text('\r\n'));
  chunks.push(text('--b--\r\n'));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { body, type: `multipart/related; type="application/json"; boundary=b` };
}

/** A study of two series; the lower Series Number opens, at its lower Instance Number. */
function stubServer(study: string, withFirstImageAnswer: boolean) {
  const asked: string[] = [];
  const root = `/api/dicomweb/studies/${study}`;
  const reply = (body: BodyInit | null, type: string, status = 200) =>
    new Response(body as BodyInit, { status, headers: { 'content-type': type } });
  const json = (value: unknown) => reply(JSON.stringify(value), 'application/dicom+json');
  const framePart = { type: `application/octet-stream; transfer-syntax=${EXPLICIT_LE}`, bytes: FRAME };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), ORIGIN).pathname;
      asked.push(path);
      if (path === `/api/viewer/studies/${study}/first-image`) {
        if (!withFirstImageAnswer) return reply(null, 'text/plain', 404);
        const descriptor = {
          series: seriesOf('1.2.1', 1),
          sopInstanceUid: '1.2.1.3',
          frameNumber: 1,
          stackFrames: 2,
          metadata: slice('1.2.1.3', 1),
        };
        const { body, type } = multipart([
          { type: 'application/json', bytes: new TextEncoder().encode(JSON.stringify(descriptor)) },
          framePart,
        ]);
        return reply(body as BodyInit, type);
      }
      if (path === `${root}/series`) return json([seriesOf('1.2.2', 2), seriesOf('1.2.1', 1)]);
      if (path === `${root}/series/1.2.1/metadata`) return json([slice('1.2.1.4', 2), slice('1.2.1.3', 1)]);
      if (path === `${root}/series/1.2.1/instances`) return json([]);
      if (path === `${root}/series/1.2.1/instances/1.2.1.3/frames/1`) {
        const { body, type } = multipart([framePart]);
        return reply(body as BodyInit, type);
      }
      return reply(null, 'text/plain', 404);
    }),
  );
  return asked;
}

afterEach(() => vi.unstubAllGlobals());

async function readyImage() {
  await vi.waitFor(() => expect(firstImageState().status).not.toBe('loading'));
  const state = firstImageState();
  if (state.status !== 'ready') throw new Error(`not ready: ${JSON.stringify(state)}`);
  return state.image;
}

describe('the first image', () => {
  it("is the server's one answer: no frame is asked for", async () => {
    const asked = stubServer('1.9.1', true);
    startFirstImage('1.9.1', ORIGIN);
    const image = await readyImage();
    expect(image.imageId).toBe(
      `wadors:${ORIGIN}/api/dicomweb/studies/1.9.1/series/1.2.1/instances/1.2.1.3/frames/1`,
    );
    expect([image.series.seriesInstanceUid, image.total]).toEqual(['1.2.1', 2]);
    expect([image.pixels.columns, image.pixels.rows]).toEqual([4, 1]);
    expect(asked.filter((path) => path.includes('/frames/'))).toEqual([]);
  });

  it('is read through DICOMweb, the same slice, when the server has no such answer', async () => {
    const asked = stubServer('1.9.2', false);
    startFirstImage('1.9.2', ORIGIN);
    const image = await readyImage();
    expect(image.imageId).toBe(
      `wadors:${ORIGIN}/api/dicomweb/studies/1.9.2/series/1.2.1/instances/1.2.1.3/frames/1`,
    );
    expect([image.series.seriesInstanceUid, image.total]).toEqual(['1.2.1', 2]);
    expect(asked).toContain('/api/dicomweb/studies/1.9.2/series/1.2.1/instances/1.2.1.3/frames/1');
  });
});
