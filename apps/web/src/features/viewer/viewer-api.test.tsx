import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TViewerAnnotation, TViewerAnnotations } from '@radflow/core';
import { fakeApi } from '../../test/fake-api';
import {
  useMarkKeyImage,
  cloudAnnotationStore,
  useSaveAnnotation,
  useSharePaymentPolling,
  useUnmarkKeyImage,
  useViewerAnnotations,
} from './viewer-api';

const annotation: TViewerAnnotation = {
  annotationUid: 'uid-1',
  toolName: 'Length',
  seriesInstanceUid: '1.2.3',
  sopInstanceUid: '1.2.3.4',
  frameNumber: 1,
  data: { handles: { points: [] } },
  createdBy: 'someone@test.local',
  createdAt: '2026-11-20T10:00:00.000Z',
};

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return Wrapper;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('viewer-api', () => {
  it('saves an annotation without the server-set fields and shows the saved one in the list', async () => {
    const saved = { ...annotation, createdBy: 'me@test.local' };
    const api = fakeApi({
      'GET /api/viewer/7/annotations': { body: { annotations: [], keyImages: [] } },
      'PUT /api/viewer/7/annotations/uid-1': { body: saved },
    });
    const { result } = renderHook(
      () => ({ list: useViewerAnnotations(7), save: useSaveAnnotation(cloudAnnotationStore(7)) }),
      {
        wrapper: wrapper(),
      },
    );
    await waitFor(() => expect(result.current.list.data).toEqual({ annotations: [], keyImages: [] }));
    await act(() => result.current.save.mutateAsync(annotation));

    const [put] = api.calls('PUT', '/api/viewer/7/annotations/uid-1');
    const body = put?.json<Record<string, unknown>>();
    expect(body).not.toHaveProperty('createdBy');
    expect(body).not.toHaveProperty('createdAt');
    expect(body?.toolName).toBe('Length');
    await waitFor(() =>
      expect((result.current.list.data as TViewerAnnotations).annotations).toEqual([saved]),
    );
  });

  it('marks and unmarks a key image by SOP instance and frame', async () => {
    const marked = { seriesInstanceUid: '1.2.3', sopInstanceUid: '1.2.3.4', frameNumber: 3 };
    const api = fakeApi({
      'POST /api/viewer/7/key-images': { body: marked },
      'DELETE /api/viewer/7/key-images': { body: { removed: true } },
    });
    const { result } = renderHook(() => ({ mark: useMarkKeyImage(7), unmark: useUnmarkKeyImage(7) }), {
      wrapper: wrapper(),
    });
    await act(() => result.current.mark.mutateAsync(marked));
    await act(() => result.current.unmark.mutateAsync({ sopInstanceUid: '1.2.3.4', frameNumber: 3 }));
    expect(api.calls('POST', '/api/viewer/7/key-images')[0]?.json()).toEqual(marked);
    const [unmark] = api.calls('DELETE', '/api/viewer/7/key-images');
    expect(unmark).toBeDefined();
    const fetchMock = vi.mocked(fetch);
    const deleteUrl = String(fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')?.[0]);
    expect(deleteUrl).toContain('sopInstanceUid=1.2.3.4');
    expect(deleteUrl).toContain('frameNumber=3');
  });

  it('polls share-info only when enabled, and reports a payment not done', async () => {
    const api = fakeApi({
      'GET /api/customer-report/share-info': { body: { paymentNotDone: true, paymentPolling: true } },
    });
    const off = renderHook(() => useSharePaymentPolling(false), { wrapper: wrapper() });
    expect(off.result.current).toBe(false);
    expect(api.calls('GET', '/api/customer-report/share-info')).toHaveLength(0);

    const on = renderHook(() => useSharePaymentPolling(true), { wrapper: wrapper() });
    // Not known before the first answer: the viewer shows no image until it is.
    expect(on.result.current).toBeUndefined();
    await waitFor(() => expect(on.result.current).toBe(true));
  });
});
