import { type TTrainingVideoList, ZTrainingVideoList } from '@radflow/core';
import { apiRequest } from '../../api/client';

export const TRAINING_VIDEOS_QUERY_KEY = ['training-videos'] as const;

/** GET /api/training-videos: the recordings this server has. */
export function fetchTrainingVideos(signal?: AbortSignal): Promise<TTrainingVideoList> {
  return apiRequest('/api/training-videos', { signal, schema: ZTrainingVideoList });
}

/** Where a recording plays from (the session cookie goes with the video element's requests). */
export const trainingVideoUrl = (id: string) => `/api/training-videos/${id}.webm`;
