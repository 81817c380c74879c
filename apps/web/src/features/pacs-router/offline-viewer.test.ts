import { ZViewerContext, type THybridStudy } from '@radflow/core';
import { describe, expect, it, vi } from 'vitest';
import {
  offlineViewerContext,
  offlineViewerPath,
  offlineViewerStudyOf,
  routerAnnotationStore,
} from './offline-viewer';
import type { RouterClient } from './router-client';

const held: THybridStudy = {
  studyInstanceUid: '1.2.840.99.1',
  reportStatusId: 41,
  patientName: 'DOE^JANE',
  patientId: 'P-7',
  patientSex: 'F',
  patientAge: '045Y',
  modality: 'CT',
  studyDate: '20261127',
  studyDescription: 'CT Head',
  urgent: false,
  receivedAt: '2026-11-27T10:00:00.000Z',
  images: 12,
  uploaded: true,
  report: null,
};

describe('the offline viewer’s address and context', () => {
  it('reads back the study its path names, and nothing from other paths', () => {
    expect(offlineViewerStudyOf(offlineViewerPath('1.2.840.99.1'))).toBe('1.2.840.99.1');
    expect(offlineViewerStudyOf('/offline-viewer/1.2.3/')).toBe('1.2.3');
    expect(offlineViewerStudyOf('/hybrid-study-list')).toBeNull();
    expect(offlineViewerStudyOf('/offline-viewer/')).toBeNull();
    expect(offlineViewerStudyOf('/offline-viewer/1.2/3')).toBeNull();
    expect(offlineViewerStudyOf('/offline-viewer/%E0%A4%A')).toBeNull();
  });

  it('is a viewer context that asks nothing of the cloud, even for a study the cloud has', () => {
    const context = offlineViewerContext(held);
    expect(ZViewerContext.parse(context)).toEqual(context);
    // Not the cloud row's id (41): id 0 turns off the calls for saved annotations and key images;
    // the measuring tools stay (drawn, never saved).
    expect(context).toMatchObject({
      id: 0,
      studyInstanceUid: '1.2.840.99.1',
      patientName: 'DOE^JANE',
      patientSex: 'F',
      patientAge: '045Y',
      modalities: ['CT'],
      entry: { allowed: true },
      canAnnotate: true,
      openInWeasis: false,
    });
    const bare = offlineViewerContext({
      ...held,
      patientName: null,
      patientSex: null,
      patientAge: null,
      modality: null,
      studyDate: null,
    });
    expect(bare).toMatchObject({
      patientName: '',
      patientSex: '',
      patientAge: '',
      modalities: [],
      studyDate: '',
    });
  });
});

describe('the offline viewer’s measurements', () => {
  it('are kept on the router per study, sent without the fields the router sets', async () => {
    const drawn = {
      annotationUid: 'a-1',
      toolName: 'Length' as const,
      seriesInstanceUid: '1.2.3.1',
      sopInstanceUid: '1.2.3.1.1',
      frameNumber: 1,
      data: { handles: { points: [] } },
    };
    const client = {
      baseUrl: 'http://localhost:8090',
      offlineAnnotations: vi.fn(async () => ({ annotations: [], keyImages: [] })),
      saveOfflineAnnotation: vi.fn(async () => ({ ...drawn, createdBy: 'dr@x.example' })),
      deleteOfflineAnnotation: vi.fn(async () => undefined),
    };
    const store = routerAnnotationStore(client as unknown as RouterClient, '1.2.3');
    await store.list();
    await store.save({ ...drawn, createdBy: 'someone@else.example', createdAt: '2026-11-29T10:00:00Z' });
    await store.remove('a-1');
    expect(client.offlineAnnotations).toHaveBeenCalledWith('1.2.3');
    expect(client.saveOfflineAnnotation).toHaveBeenCalledWith({
      studyInstanceUid: '1.2.3',
      annotation: drawn,
    });
    expect(client.deleteOfflineAnnotation).toHaveBeenCalledWith({
      studyInstanceUid: '1.2.3',
      annotationUid: 'a-1',
    });
    expect(store.queryKey).toEqual(['router-annotations', 'http://localhost:8090', '1.2.3']);
  });
});
