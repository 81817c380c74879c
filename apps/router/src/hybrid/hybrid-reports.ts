import { AppError, type THybridStudy } from '@radflow/core';
import type { HybridReports, UploadQueue } from '../api/ports.js';
import { MESSAGE_STUDY_NOT_FOUND } from '../api/queue-adapter.js';
import type { OfflineAnnotationStore } from './annotation-store.js';
import type { OfflineDraftStore } from './draft-store.js';
import type { OfflineReportStore } from './report-store.js';

/**
 * The hybrid screens' port (HYBRID.md): the studies the router holds (its queue, uploaded or not)
 * with the report written on the router for each; a study the router no longer holds but whose
 * offline report is not taken up yet stays listed, so a conflict is never hidden.
 */
export function hybridReportsOf(
  queue: Pick<UploadQueue, 'pendingCases' | 'holds'>,
  {
    reports: store,
    annotations,
    drafts,
  }: {
    readonly reports: OfflineReportStore;
    readonly annotations: OfflineAnnotationStore;
    readonly drafts: OfflineDraftStore;
  },
  /** Something to take up was written (a report save or resolution, a measurement): the sync looks now. */
  onSaved: () => void,
): HybridReports {
  /**
   * NOT_FOUND unless the router holds the study's images. Asked on every measurement and draft
   * save: a lookup, not the whole list of cases.
   */
  const assertHeld = (studyInstanceUid: string) => {
    if (!queue.holds(studyInstanceUid)) {
      throw new AppError('NOT_FOUND', MESSAGE_STUDY_NOT_FOUND, 'studyInstanceUid');
    }
  };
  return {
    async studies() {
      const cases = await queue.pendingCases();
      const held = new Set(cases.map((c) => c.studyInstanceUid));
      const rows: THybridStudy[] = cases.map((c) => {
        const report = store.report(c.studyInstanceUid);
        return {
          studyInstanceUid: c.studyInstanceUid,
          reportStatusId: report?.reportStatusId ?? null,
          patientName: c.patientName,
          patientId: c.patientId,
          patientSex: c.patientSex,
          patientAge: c.patientAge,
          modality: c.modality,
          studyDate: c.studyDate,
          studyDescription: c.studyDescription,
          urgent: c.urgent,
          receivedAt: c.queuedAt,
          images: c.total,
          uploaded: c.state === 'DONE',
          report,
        };
      });
      for (const report of store.list()) {
        if (held.has(report.studyInstanceUid) || report.state === 'SYNCED') continue;
        rows.push({
          studyInstanceUid: report.studyInstanceUid,
          reportStatusId: report.reportStatusId,
          patientName: null,
          patientId: null,
          patientSex: null,
          patientAge: null,
          modality: null,
          studyDate: null,
          studyDescription: null,
          urgent: false,
          receivedAt: report.writtenAt,
          images: 0,
          uploaded: true,
          report,
        });
      }
      return rows;
    },
    report: (studyInstanceUid) => store.report(studyInstanceUid),
    versions: (studyInstanceUid) => store.versions(studyInstanceUid),
    async save(input, author) {
      assertHeld(input.studyInstanceUid);
      const saved = await store.save({ ...input, author });
      // A save takes the text the draft held (as the cloud's save removes the writer's draft).
      await drafts.remove(input.studyInstanceUid, author.email);
      onSaved();
      return saved;
    },
    async resolve(input, user) {
      const report = await store.resolve(input.studyInstanceUid, input.action, user);
      onSaved();
      return report;
    },
    async annotations(studyInstanceUid) {
      assertHeld(studyInstanceUid);
      return annotations.list(studyInstanceUid);
    },
    async saveAnnotation(input, author) {
      assertHeld(input.studyInstanceUid);
      const saved = await annotations.save(input.studyInstanceUid, input.annotation, author.email);
      onSaved();
      return saved;
    },
    async deleteAnnotation(ref, author) {
      await annotations.remove(ref.studyInstanceUid, ref.annotationUid, author.email);
      onSaved();
    },
    draft: (studyInstanceUid, user) => drafts.draft(studyInstanceUid, user.email),
    async saveDraft({ studyInstanceUid, name, content, baseVersion }, user) {
      assertHeld(studyInstanceUid);
      return drafts.save(studyInstanceUid, user.email, { name, content, baseVersion });
    },
    deleteDraft: (studyInstanceUid, user) => drafts.remove(studyInstanceUid, user.email),
  };
}
