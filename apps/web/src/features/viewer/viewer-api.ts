import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAYMENT_POLL_MS,
  VIEWER_HEARTBEAT_MS,
  type TKeyImage,
  type TKeyImageInput,
  type TViewerAnnotation,
  type TViewerAnnotations,
  type TViewerContext,
  type TViewerPriors,
  ZKeyImage,
  ZShareInfo,
  ZViewerAnnotation,
  ZViewerAnnotations,
  ZViewerContext,
  ZViewerPriors,
  ZWeasisLaunch,
} from '@radflow/core';
import { useEffect } from 'react';
import { ApiError, apiRequest } from '../../api/client';
import { viewerContextPath } from './viewer-address';

/*
 * The viewer's calls (issue 5; the contract of apps/server/src/modules/viewer) as TanStack Query
 * hooks. The study is the report row id of the route /viewer/:studyInstanceUids/:id.
 */

const base = (id: number) => `/api/viewer/${id}`;
const enc = encodeURIComponent;

export const viewerQueryKey = (id: number) => ['viewer', id] as const;
export const viewerContextQueryKey = (id: number) => [...viewerQueryKey(id), 'context'] as const;
export const viewerAnnotationsQueryKey = (id: number) => [...viewerQueryKey(id), 'annotations'] as const;
export const viewerPriorsQueryKey = (id: number) => [...viewerQueryKey(id), 'priors'] as const;
export const SHARE_INFO_QUERY_KEY = ['share-info'] as const;

/** A 4xx is the answer (not found, not allowed): asking again changes nothing. */
const retryUnlessRefused = (failures: number, error: Error) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;

export function fetchViewerContext(id: number, signal?: AbortSignal): Promise<TViewerContext> {
  // Quiet: the page shows 'Not found' itself.
  return apiRequest(viewerContextPath(id), { schema: ZViewerContext, signal, quiet: true });
}

export function fetchViewerAnnotations(id: number, signal?: AbortSignal): Promise<TViewerAnnotations> {
  return apiRequest(`${base(id)}/annotations`, { schema: ZViewerAnnotations, signal });
}

export function saveViewerAnnotation(id: number, annotation: TViewerAnnotation): Promise<TViewerAnnotation> {
  const { createdBy: _by, createdAt: _at, ...body } = annotation;
  return apiRequest(`${base(id)}/annotations/${enc(annotation.annotationUid)}`, {
    method: 'PUT',
    json: body,
    schema: ZViewerAnnotation,
  });
}

export function deleteViewerAnnotation(id: number, annotationUid: string): Promise<unknown> {
  return apiRequest(`${base(id)}/annotations/${enc(annotationUid)}`, { method: 'DELETE' });
}

export function markViewerKeyImage(id: number, keyImage: TKeyImageInput): Promise<TKeyImage> {
  const { seriesInstanceUid, sopInstanceUid, frameNumber } = keyImage;
  return apiRequest(`${base(id)}/key-images`, {
    json: { seriesInstanceUid, sopInstanceUid, frameNumber },
    schema: ZKeyImage,
  });
}

export function unmarkViewerKeyImage(
  id: number,
  keyImage: Pick<TKeyImageInput, 'sopInstanceUid' | 'frameNumber'>,
): Promise<unknown> {
  const query = new URLSearchParams({
    sopInstanceUid: keyImage.sopInstanceUid,
    frameNumber: String(keyImage.frameNumber),
  });
  return apiRequest(`${base(id)}/key-images?${query.toString()}`, { method: 'DELETE' });
}

export function fetchViewerPriors(id: number, signal?: AbortSignal): Promise<TViewerPriors> {
  return apiRequest(`${base(id)}/priors`, { schema: ZViewerPriors, signal });
}

export async function fetchWeasisLaunchUrl(id: number): Promise<string> {
  return (await apiRequest(`${base(id)}/weasis`, { schema: ZWeasisLaunch })).launchUrl;
}

/** GET /api/viewer/:id/context: patient, upload state, the entry verdict and the viewer settings. */
export function useViewerContext(id: number): UseQueryResult<TViewerContext> {
  return useQuery({
    queryKey: viewerContextQueryKey(id),
    queryFn: ({ signal }) => fetchViewerContext(id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
    retry: retryUnlessRefused,
    staleTime: 60_000,
  });
}

/**
 * Whether the study has a row in the cloud to keep its annotations and key images on. The viewer on
 * the router's page (no cloud) opens with id 0: its measurements are kept on the router instead
 * (pacs-router `routerAnnotationStore`), and it has no key images.
 */
export const keepsAnnotations = (id: number) => id > 0;

/**
 * Where the viewer keeps a study's measurements and arrows: the cloud's row of the study
 * ({@link cloudAnnotationStore}) or, on the router's page with the cloud unreachable, the router.
 * `queryKey` caches the list; saves and deletes change that cache in place.
 */
export interface AnnotationStore {
  readonly queryKey: readonly unknown[];
  list(signal?: AbortSignal): Promise<TViewerAnnotations>;
  save(annotation: TViewerAnnotation): Promise<TViewerAnnotation>;
  remove(annotationUid: string): Promise<unknown>;
}

/** The cloud row's annotations, or null for a study with no cloud row (id 0). */
export function cloudAnnotationStore(id: number): AnnotationStore | null {
  if (!keepsAnnotations(id)) return null;
  return {
    queryKey: viewerAnnotationsQueryKey(id),
    list: (signal) => fetchViewerAnnotations(id, signal),
    save: (annotation) => saveViewerAnnotation(id, annotation),
    remove: (annotationUid) => deleteViewerAnnotation(id, annotationUid),
  };
}

const NO_STORE_KEY = ['viewer', 'no-annotation-store'] as const;

/** The study's saved measurements and arrows (and, in the cloud, key images); idle without a store. */
export function useStoredAnnotations(store: AnnotationStore | null): UseQueryResult<TViewerAnnotations> {
  return useQuery({
    queryKey: store?.queryKey ?? NO_STORE_KEY,
    queryFn: ({ signal }) => (store ? store.list(signal) : Promise.resolve(EMPTY)),
    enabled: store !== null,
    retry: retryUnlessRefused,
  });
}

/** The cloud row's saved measurements, arrows and key images. */
export function useViewerAnnotations(id: number): UseQueryResult<TViewerAnnotations> {
  return useStoredAnnotations(cloudAnnotationStore(id));
}

const EMPTY: TViewerAnnotations = { annotations: [], keyImages: [] };

/** Changes the cached annotations in place, so the viewer does not refetch after each drawing. */
function useUpdateAnnotations(queryKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  return (change: (current: TViewerAnnotations) => TViewerAnnotations) =>
    queryClient.setQueryData<TViewerAnnotations>(queryKey, (current) => change(current ?? EMPTY));
}

const noStore = () => Promise.reject(new Error('This study keeps no annotations'));

/** Saves (creates or replaces) one annotation; the answer replaces the cached one. */
export function useSaveAnnotation(store: AnnotationStore | null) {
  const update = useUpdateAnnotations(store?.queryKey ?? NO_STORE_KEY);
  return useMutation({
    mutationFn: (annotation: TViewerAnnotation) => (store ? store.save(annotation) : noStore()),
    onSuccess: (saved) =>
      update((current) => ({
        ...current,
        annotations: [...current.annotations.filter((a) => a.annotationUid !== saved.annotationUid), saved],
      })),
  });
}

/** Deletes one annotation by its uid. */
export function useDeleteAnnotation(store: AnnotationStore | null) {
  const update = useUpdateAnnotations(store?.queryKey ?? NO_STORE_KEY);
  return useMutation({
    mutationFn: (annotationUid: string) => (store ? store.remove(annotationUid) : noStore()),
    onSuccess: (_answer, annotationUid) =>
      update((current) => ({
        ...current,
        annotations: current.annotations.filter((a) => a.annotationUid !== annotationUid),
      })),
  });
}

const sameFrame = (a: Pick<TKeyImage, 'sopInstanceUid' | 'frameNumber'>, b: typeof a) =>
  a.sopInstanceUid === b.sopInstanceUid && a.frameNumber === b.frameNumber;

/** Marks a frame as a key image (idempotent). */
export function useMarkKeyImage(id: number) {
  const update = useUpdateAnnotations(viewerAnnotationsQueryKey(id));
  return useMutation({
    mutationFn: (keyImage: TKeyImageInput) => markViewerKeyImage(id, keyImage),
    onSuccess: (marked) =>
      update((current) => ({
        ...current,
        keyImages: [...current.keyImages.filter((k) => !sameFrame(k, marked)), marked],
      })),
  });
}

/** Unmarks a key image. */
export function useUnmarkKeyImage(id: number) {
  const update = useUpdateAnnotations(viewerAnnotationsQueryKey(id));
  return useMutation({
    mutationFn: (keyImage: Pick<TKeyImageInput, 'sopInstanceUid' | 'frameNumber'>) =>
      unmarkViewerKeyImage(id, keyImage),
    onSuccess: (_answer, keyImage) =>
      update((current) => ({
        ...current,
        keyImages: current.keyImages.filter((k) => !sameFrame(k, keyImage)),
      })),
  });
}

/** The patient's other studies the user may see, newest first. */
export function usePriors(id: number): UseQueryResult<TViewerPriors> {
  return useQuery({
    queryKey: viewerPriorsQueryKey(id),
    queryFn: ({ signal }) => fetchViewerPriors(id, signal),
    retry: retryUnlessRefused,
    staleTime: 5 * 60_000,
  });
}

/** Asks for a weasis:// launch URL (the caller opens it). */
export function useWeasisLaunch(id: number) {
  return useMutation({ mutationFn: () => fetchWeasisLaunchUrl(id) });
}

/**
 * spec-core §4 Viewer payment: a viewer-role session polls GET /customer-report/share-info every 2
 * minutes (§9); true once the answer says the payment is not done, undefined until the first
 * answer (the viewer shows no image before it), false when not polled. Quiet: a failed poll counts
 * as no payment due and is retried at the next interval.
 */
export function useSharePaymentPolling(enabled: boolean): boolean | undefined {
  const query = useQuery({
    queryKey: SHARE_INFO_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest('/api/customer-report/share-info', { schema: ZShareInfo, signal, quiet: true }),
    enabled,
    refetchInterval: PAYMENT_POLL_MS,
    refetchIntervalInBackground: true,
    retry: false,
  });
  if (!enabled) return false;
  if (query.data) return query.data.paymentNotDone === true;
  return query.isError ? false : undefined;
}

/**
 * The open viewer's heartbeat (spec-core §6 showActiveInViewer): says at once, then every
 * VIEWER_HEARTBEAT_MS while the page is visible, that the user is active on the study. Quiet and
 * best-effort: a lost beat only makes the assignor's "last active" a minute older.
 */
export function useViewerHeartbeat(id: number, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return undefined;
    const beat = () => {
      if (document.visibilityState !== 'visible') return;
      apiRequest(`/api/viewer/${id}/activity`, { method: 'POST', quiet: true }).catch(() => undefined);
    };
    beat();
    const timer = window.setInterval(beat, VIEWER_HEARTBEAT_MS);
    document.addEventListener('visibilitychange', beat);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', beat);
    };
  }, [id, enabled]);
}
