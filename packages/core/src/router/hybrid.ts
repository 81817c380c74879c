/**
 * Offline hybrid (issue 27 §4): reports written on the center router while the link is down, and
 * the one cloud call that takes them up (apps/router/HYBRID.md). Shared by the router (writer and
 * sync) and the server (acceptance).
 */
import { z } from 'zod';
import { ZReportSaveRequest } from '../reporting/schemas.js';

/** The cloud's call the router takes offline reports up with (API token, ROLE_CENTER owner). */
export const OFFLINE_REPORT_UPLOAD_PATH = '/api/router/offline-report';

/** One offline save, as the router sends it: the save call's body plus who, which study, which write. */
export const ZOfflineReportUpload = ZReportSaveRequest.pick({
  name: true,
  content: true,
  signOff: true,
  baseVersion: true,
}).extend({
  /** The router's id of this save: a repeat of the same write is answered SAME, never saved twice. */
  writeId: z.uuid(),
  /** The study as the router knows it; the cloud finds its row among the center's studies. */
  studyInstanceUid: z
    .string()
    .trim()
    .regex(/^[0-9.]{1,64}$/, 'studyInstanceUid must be a DICOM UID'),
  /** The hybrid user who wrote it offline: the report is theirs, signed with their signature. */
  authorEmail: z.email().max(254),
  /** When it was written on the router (ISO 8601), kept on the timeline. */
  writtenAt: z.iso.datetime({ offset: true }),
});
export type TOfflineReportUpload = z.infer<typeof ZOfflineReportUpload>;

export const ZOfflineReportUploadResult = z.object({
  /** SAVED: written now; SAME: this writeId was taken before (the answer is the first one's). */
  outcome: z.enum(['SAVED', 'SAME']),
  reportStatusId: z.number().int(),
  savedVersion: z.number().int(),
});
export type TOfflineReportUploadResult = z.infer<typeof ZOfflineReportUploadResult>;

/** Why the cloud did not take an offline report (server answer's additionalInfo on 404 / 403). */
export const OFFLINE_REPORT_MESSAGES = {
  studyNotInCloud: 'The study is not in the cloud yet',
  authorNotHybrid: 'The author is not an offline-hybrid doctor of this center',
  /** The row is held by another doctor in the cloud (locked or assigned): the author may not write it. */
  heldInCloud: 'The study was taken by another doctor in the cloud meanwhile',
} as const;
