import { and, eq, sql } from 'drizzle-orm';
import {
  type TFirstImageDescriptor,
  type TStudyScope,
  compareSeriesForDisplay,
  compareStackInstances,
  stackFramesOf,
} from '@radflow/core';
import type { AppContext } from '../../context.js';
import { instances, series, studies } from '../../db/schema.js';
import { multipartContentType, multipartStream, newBoundary } from '../dicomweb-retrieve/multipart.js';
import { seriesAttributes } from '../dicomweb-retrieve/qido.js';
import { findStoredInstance, notFound } from '../dicomweb-retrieve/retrieve-repository.js';
import { visibleStudies } from '../studies/study-access.js';
import { chooseFrameEncoding } from '../dicomweb-retrieve/transfer-syntax-negotiation.js';
import { type TStreamAnswer, numberValue, readFrame, swap16 } from '../dicomweb-retrieve/wado.js';

/**
 * The image a viewer opens a study on, in one answer (VIEWER.md "First image in one request").
 * Through DICOMweb the browser needs three answers one after the other — the series list (to know
 * the first series), that series' metadata (to know its first slice), then the frame — and each
 * step waits for the page's busy main thread between them. Here the same choice is made on the
 * server by the same rules (`@radflow/core` display-order: the first series by Series Number, the
 * stack's first image-bearing instance by Instance Number), so the page can ask for it with a URL
 * it knows from its address alone.
 *
 * The answer is multipart/related: a JSON part (the series as QIDO-RS lists it, the instance's
 * PS3.18 metadata as WADO-RS gives it, the stack's frame count) and the frame itself exactly as
 * WADO-RS Retrieve Frames sends it for `transfer-syntax=*` (stored syntax; big-endian 16-bit
 * swapped). The caller's scope is checked as on every DICOMweb read: a study it may not see is 404.
 */

/** Any media type: frames in the stored syntax, as the viewer's loader asks for them. */
const STORED_SYNTAX = [{ type: '*/*', params: {}, q: 1 }] as const;

/**
 * Whether an instance holds an image (SR, ECG and other non-image objects do not): a recorded frame
 * range says so without reading the metadata; the JSON is looked at only for the rest (deflated,
 * fragmented or float pixel data), as the browser's `hasPixels` looks at it.
 */
const HAS_PIXELS = sql<boolean>`(${instances.frames} is not null or coalesce(${instances.metadata}->'7FE00010', ${instances.metadata}->'7FE00008', ${instances.metadata}->'7FE00009') is not null)`;

export async function viewerFirstImage(
  ctx: AppContext,
  scope: TStudyScope,
  studyUid: string,
  baseUrl: string,
): Promise<TStreamAnswer> {
  // The study's series, if the caller may see it: a study it may not see answers as one without images.
  const seriesRows = await ctx.db
    .select({ study: studies, series })
    .from(series)
    .innerJoin(studies, eq(studies.id, series.studyId))
    .where(and(visibleStudies(scope), eq(studies.studyInstanceUid, studyUid)));
  const first = seriesRows
    .map((row) => ({
      ...row,
      seriesNumber: row.series.seriesNumber,
      seriesInstanceUid: row.series.seriesInstanceUid,
    }))
    .sort(compareSeriesForDisplay)[0];
  if (!first) throw notFound('Image');
  // The stack as the viewer builds it: image-bearing instances only.
  const stack = (
    await ctx.db
      .select({
        sopInstanceUid: instances.sopInstanceUid,
        instanceNumber: instances.instanceNumber,
        numberOfFrames: instances.numberOfFrames,
      })
      .from(instances)
      .where(and(eq(instances.seriesId, first.series.id), HAS_PIXELS))
  ).sort(compareStackInstances);
  const top = stack[0];
  if (!top) throw notFound('Image');
  const instance = await findStoredInstance(ctx.db, scope, {
    studyUid,
    seriesUid: first.series.seriesInstanceUid,
    sopUid: top.sopInstanceUid,
  });
  const encoding = chooseFrameEncoding(
    instance.transferSyntaxUid,
    numberValue(instance.metadata, '00280100'),
    STORED_SYNTAX,
  );
  // Read before the answer starts, so a frame that cannot be cut is a 409, not a broken stream.
  const frame = await readFrame(ctx, instance, 0);
  const descriptor: TFirstImageDescriptor = {
    series: seriesAttributes(first.study, first.series, { baseUrl }),
    sopInstanceUid: top.sopInstanceUid,
    frameNumber: 1,
    stackFrames: stack.reduce((n, i) => n + stackFramesOf(i.numberOfFrames), 0),
    metadata: instance.metadata,
  };
  const boundary = newBoundary();
  return {
    contentType: multipartContentType(boundary, 'application/json'),
    body: multipartStream(boundary, [
      { contentType: 'application/json', open: () => Buffer.from(JSON.stringify(descriptor)) },
      {
        contentType: `${encoding.partType}; transfer-syntax=${encoding.transferSyntaxUid}`,
        open: () => (encoding.swap16 ? swap16(frame) : frame),
      },
    ]),
  };
}
