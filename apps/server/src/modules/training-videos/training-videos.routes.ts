import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZTrainingVideoList, ZTrainingVideoParams } from '@radflow/core';
import { SIGNED_IN, errorResponses } from '../http.js';
import { byteRangeOf, listTrainingVideos, trainingVideoFile } from './training-videos.js';

export interface TTrainingVideosOptions {
  /** Where scripts/record-training-videos.ts wrote the recordings (main: TRAINING_VIDEOS_DIR). */
  videosDir?: string | undefined;
}

const ZVideo = z.any().meta({ description: 'The recording (video/webm)' });

/**
 * The FAQ's training videos (issue 29 §7; spec-core §2 "a full-screen FAQ with 12 training videos"):
 * which are recorded, and each recording, to anyone signed in. README.md beside this.
 */
export const trainingVideosRoutes: FastifyPluginAsyncZod<TTrainingVideosOptions> = async (app, opts) => {
  const tags = ['help'];
  const signedIn = { onRequest: app.requireUser };

  app.get(
    '/training-videos',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'The training videos recorded on this server, in the FAQ order',
        response: { 200: ZTrainingVideoList, ...errorResponses(401) },
      },
    },
    async () => ({ videos: await listTrainingVideos(opts.videosDir) }),
  );

  app.get(
    '/training-videos/:file',
    {
      ...signedIn,
      schema: {
        tags,
        security: SIGNED_IN,
        summary: 'One recording (video/webm), whole or one byte range',
        params: ZTrainingVideoParams,
        response: { 200: ZVideo, 206: ZVideo, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { filePath, size } = await trainingVideoFile(opts.videosDir, request.params.file);
      const range = byteRangeOf(request.headers.range, size);
      void reply
        .header('content-type', 'video/webm')
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=3600');
      if (!range) return reply.header('content-length', size).send(createReadStream(filePath));
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(filePath, { start: range.start, end: range.end }));
    },
  );
};
