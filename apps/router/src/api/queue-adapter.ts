import { EventEmitter } from 'node:events';
import { AppError, type TPendingCase, type TRouterEvent } from '@radflow/core';
import type { InstanceQueue } from '../queue/queue.js';
import type { UploadQueue } from './ports.js';

export const MESSAGE_STUDY_NOT_FOUND = 'The router holds no such study';
export const MESSAGE_STUDY_NOT_UPLOADED =
  'The study is not fully uploaded yet: the router keeps it until the cloud has every image';

type TQueueCase = ReturnType<InstanceQueue['allCases']>[number];

/** The queue's case as the local API's contract says it (core ZPendingCase). */
export function toPendingCase(study: TQueueCase, retryAt: string | undefined): TPendingCase {
  const errors = study.instances.filter((i) => !i.sent && i.error !== undefined);
  return {
    studyInstanceUid: study.studyInstanceUid,
    patientName: study.patientName,
    patientId: study.patientId,
    patientSex: study.patientSex,
    patientAge: study.patientAge,
    modality: study.modality,
    studyDate: study.studyDate,
    studyDescription: study.studyDescription,
    urgent: study.urgent,
    queuedAt: study.queuedAt,
    state: study.state,
    instances: study.instances.map((i) => ({
      sopInstanceUid: i.sopInstanceUid,
      seriesInstanceUid: i.seriesInstanceUid,
      sent: i.sent,
      ...(i.error !== undefined ? { error: i.error } : {}),
    })),
    total: study.total,
    sent: study.sent,
    error: errors.at(-1)?.error ?? null,
    retryAt: retryAt ?? null,
  };
}

/**
 * The durable queue (queue/queue.ts) behind the local API's UploadQueue port: its cases in the
 * contract's shape, its outcomes as AppErrors, its typed events as the /events vocabulary.
 */
export function uploadQueueOf(queue: InstanceQueue, now: () => Date = () => new Date()): UploadQueue {
  const own = new EventEmitter<{ event: [TRouterEvent] }>();
  const at = () => now().toISOString();
  const forward = (event: Omit<TRouterEvent, 'at'>) => own.emit('event', { ...event, at: at() });
  queue.on('instance-queued', (e) => forward({ type: 'queued', studyInstanceUid: e.studyInstanceUid }));
  queue.on('instance-sent', (e) => forward({ type: 'sent', studyInstanceUid: e.studyInstanceUid }));
  queue.on('instance-failed', (e) =>
    forward({ type: 'failed', studyInstanceUid: e.studyInstanceUid, error: e.reason }),
  );
  queue.on('study-done', (e) => forward({ type: 'uploaded', studyInstanceUid: e.studyInstanceUid }));
  queue.on('study-retry', (e) => forward({ type: 'retry', studyInstanceUid: e.studyInstanceUid }));
  queue.on('disk-alarm', (usage) =>
    forward({
      type: 'disk-alarm',
      studyInstanceUid: null,
      error: `The router disk is ${Math.round((usage.usedBytes / usage.quotaBytes) * 100)}% full`,
    }),
  );

  return {
    async pendingCases() {
      // Every study in the spool, uploaded ones too: the screen shows the queue draining to done.
      return queue.allCases().map((c) => toPendingCase(c, queue.studyProgress(c.studyInstanceUid)?.retryAt));
    },
    holds: (studyInstanceUid) => queue.holds(studyInstanceUid),
    async enqueueFile(bytes) {
      const result = await queue.enqueueFile(bytes, {});
      if (result.status === 'refused') {
        throw new AppError(result.quotaFull ? 'CONFLICT' : 'BAD_REQUEST', result.reason);
      }
      return { studyInstanceUid: result.studyInstanceUid };
    },
    async retry(studyInstanceUid) {
      if (!(await queue.retryStudy(studyInstanceUid))) {
        throw new AppError('NOT_FOUND', MESSAGE_STUDY_NOT_FOUND, studyInstanceUid);
      }
    },
    async deleteUploadedStudy(studyInstanceUid) {
      const outcome = await queue.deleteUploadedStudy(studyInstanceUid);
      if (outcome === 'not-found') throw new AppError('NOT_FOUND', MESSAGE_STUDY_NOT_FOUND, studyInstanceUid);
      if (outcome === 'not-uploaded') {
        throw new AppError('CONFLICT', MESSAGE_STUDY_NOT_UPLOADED, studyInstanceUid);
      }
      forward({ type: 'deleted', studyInstanceUid });
    },
    subscribe(listener) {
      own.on('event', listener);
      return () => own.off('event', listener);
    },
  };
}
