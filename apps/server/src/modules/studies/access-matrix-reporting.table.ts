import type { TRole } from '@radflow/core';
import { CENTER_USERS, READS_REPORT_WORK, SEES_STUDY, type TMatrixRow, only } from './access-matrix.table.js';

/*
 * The EXPECTED access matrix of the reporting calls (issue 7), read like access-matrix.table.ts: the
 * roles in `allowed` get `success`, `conflict` roles 409, every other role 403 (403 or 404 for roles
 * that see no study). Written from spec-core §5 ("Read-only roles that cannot edit reports: referring
 * doctor, auditor, customer, viewer, lab supervisor, lab receptionist"), §4, §6 and, where the spec is
 * silent, the decision each module documented (cited per row). The fresh study is assigned to the
 * matrix doctor, whom the typist types for.
 */

/** Who writes report text (reporting DECISIONS 'How a write runs'; spec-core §6 typist and doctor). */
const REPORT_WRITERS = only('ROLE_DOCTOR', 'ROLE_TYPIST');
/** Who may take an unsigned report as a marked preliminary document (report-documents DECISIONS). */
const DOCUMENT_WRITERS = only('ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER');

const seesStudyBut = (...left: TRole[]) => SEES_STUDY.filter((r) => !left.includes(r));

export const REPORTING_MATRIX: readonly TMatrixRow[] = [
  // ---- Writing (reporting DECISIONS; spec-core §5 read-only roles, §6 typist gate) ---------------
  {
    title: 'POST /report/lock/{id} on CREATED',
    endpoint: 'reportLock',
    status: 'CREATED',
    allowed: REPORT_WRITERS,
    success: 200,
    source:
      "issue 7 §2 'Opening a study to report locks it for that doctor'; spec §6 'a typist first chooses the doctor " +
      "they type for'; reporting DECISIONS 'Who opens a study to report' (a verifier only on a waiting report)",
  },
  {
    title: 'POST /report/save/{id} on LOCKED (held by the doctor)',
    endpoint: 'reportSave',
    status: 'LOCKED',
    allowed: REPORT_WRITERS,
    success: 200,
    source:
      "spec §5 read-only roles never write; reporting DECISIONS 'Typist … names the doctor': the typist saves " +
      'for the doctor who holds the row; admins, assignors and the rest do not write report text',
  },
  {
    title: 'POST /report/save/{id} signOff on LOCKED (held by the doctor)',
    endpoint: 'reportSignOff',
    status: 'LOCKED',
    allowed: only('ROLE_DOCTOR'),
    success: 200,
    source:
      "issue 7 §2 'sign off gives SIGNED_OFF … and the doctor's signature'; reporting DECISIONS 'Typists save but " +
      "never sign off'; a verifier signs off only a report waiting for verification (none here)",
  },
  {
    title: 'GET /report/{id} on CREATED',
    endpoint: 'reportRead',
    status: 'CREATED',
    allowed: SEES_STUDY,
    success: 200,
    source:
      "issue 7 §2 'the read-only roles … can read'; reporting DECISIONS 'Reading reports: whoever may see the row' " +
      '(what each reads: report-content-access.int.test.ts)',
  },
  ...(
    [
      ['GET /report/draft/{id}', 'draftGet'],
      ['PUT /report/draft/{id}', 'draftPut'],
      ['DELETE /report/draft/{id}', 'draftDelete'],
    ] as const
  ).map(([title, endpoint]): TMatrixRow => ({
    title: `${title} on CREATED`,
    endpoint,
    status: 'CREATED',
    allowed: REPORT_WRITERS,
    success: 200,
    source:
      "issue 7 §1 auto-save; reporting DECISIONS 'Drafts': writers only, read-only roles and roles that write " +
      'no report 403 before the row is looked up',
  })),

  // ---- Templates (spec §2 /template-page; reporting DECISIONS 'Templates: who') -----------------
  {
    title: 'GET /report-template/',
    endpoint: 'templateList',
    status: null,
    allowed: only(
      'ROLE_DOCTOR',
      'ROLE_TYPIST',
      'ROLE_ADMIN',
      'ROLE_GROUP',
      'ROLE_VERIFIER',
      'ROLE_OFFLINE_HYBRID',
    ),
    success: 200,
    source:
      "spec §2 Menu: 'Manage template' for DOCTOR and TYPIST; reporting DECISIONS 'Templates: who reads': their " +
      "keepers (plus the group admins who keep the group's) and verifiers, who write in the editor's chooser; " +
      "a hybrid doctor, whose router keeps them for the offline editor (router HYBRID.md 'Templates offline'). " +
      'Fixed session 6: every signed-in role could list them',
  },
  {
    title: 'POST /report-template/',
    endpoint: 'templateCreate',
    status: null,
    allowed: only('ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_ADMIN', 'ROLE_GROUP'),
    success: 200,
    source:
      "issue 7 §1 templates; reporting DECISIONS 'Templates: who: doctors, typists, ROLE_ADMIN and ROLE_GROUP' " +
      '(disableCreateTemplateOptionToRadiologist is off here)',
  },

  // ---- Audio notes (spec §2 audio recordings dialog, §7 /report-audio; report-audio DECISIONS) ---
  ...(
    [
      ['GET /report-audio/fetch-audio/{id}', 'audioList'],
      ['GET /report-audio/file/{id}/{audioId}', 'audioFile'],
    ] as const
  ).map(([title, endpoint]): TMatrixRow => ({
    title: `${title} on CREATED`,
    endpoint,
    status: 'CREATED',
    allowed: READS_REPORT_WORK,
    success: 200,
    source:
      "report-audio DECISIONS 'Who lists and plays': whoever works on the row; the read-only roles of spec §5 " +
      'read the signed-off report, not the dictation behind it (security issue §1, core readsReportWork)',
  })),
  {
    title: 'POST /report-audio/save-audio/{id} on CREATED',
    endpoint: 'audioSave',
    status: 'CREATED',
    allowed: ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER', ...CENTER_USERS],
    success: 200,
    source:
      "report-audio DECISIONS 'Who adds: doctors, typists, verifiers, and center users of the row's own center'; " +
      'spec §5 read-only roles refused',
  },
  {
    title: "DELETE /report-audio/delete-audio/{id}/{audioId} (the doctor's note)",
    endpoint: 'audioDelete',
    status: 'CREATED',
    allowed: only('ROLE_DOCTOR', 'ROLE_ADMIN', 'ROLE_GROUP'),
    success: 200,
    source: "report-audio DECISIONS 'Who deletes: the uploader … or a group admin (ROLE_ADMIN, ROLE_GROUP)'",
  },

  // ---- Documents (spec §4 Print, §5 Download and Print hide, §9; report-documents DECISIONS) -----
  ...(
    [
      ['POST /pdf/download', 'pdfDownload'],
      ['POST /pdf/download-images', 'pdfDownloadImages'],
      ['POST /pdf/word', 'pdfWord'],
    ] as const
  ).map(([title, endpoint]): TMatrixRow => ({
    title: `${title} on SIGNED_OFF (signed by the doctor)`,
    endpoint,
    status: 'SIGNED_OFF',
    allowed: SEES_STUDY,
    success: 200,
    source:
      "spec §4 'Print is enabled only when the study has reports and is SIGNED_OFF or DELETED'; §5 hides it " +
      'only from tele doctors and with disableDownloadZipForDoctor (both off): whoever sees the row',
  })),
  {
    title: 'POST /pdf/download on SIGNED_OFF with disableDownloadZipForDoctor',
    endpoint: 'pdfDownload',
    status: 'SIGNED_OFF',
    flags: { disableDownloadZipForDoctor: true },
    allowed: seesStudyBut('ROLE_DOCTOR'),
    success: 200,
    source: "spec §5 'Download and Print hidden for doctors when tele or disableDownloadZipForDoctor'",
  },
  {
    title: 'POST /pdf/download on REPORTED (saved, not signed off)',
    endpoint: 'pdfDownload',
    status: 'REPORTED',
    allowed: DOCUMENT_WRITERS,
    conflict: seesStudyBut(...DOCUMENT_WRITERS),
    success: 200,
    source:
      "spec §4 print needs SIGNED_OFF: others 409 'not signed off'; report-documents DECISIONS: report writers " +
      "get a copy marked 'PRELIMINARY — NOT SIGNED OFF'",
  },

  // ---- Sharing (spec §6 Doctor 'may send to referring doctor when radiologistCanSendToReferringDoctor') --
  {
    title: 'GET /report-status/messages/{id} on CREATED',
    endpoint: 'reportMessages',
    status: 'CREATED',
    allowed: CENTER_USERS,
    success: 200,
    source: 'study-sharing DECISIONS: the messages of a row are for whoever may share it (center users)',
  },
  {
    title: 'GET /report-status/messages/{id} on CREATED with radiologistCanSendToReferringDoctor',
    endpoint: 'reportMessages',
    status: 'CREATED',
    flags: { radiologistCanSendToReferringDoctor: true },
    allowed: [...CENTER_USERS, 'ROLE_DOCTOR'],
    success: 200,
    source: "spec §6 'Doctor: … may send to referring doctor when radiologistCanSendToReferringDoctor is on'",
  },
  {
    title: 'POST /pdf/generate-viewer-qr on CREATED without enableSecureViewerQrCodeGeneration',
    endpoint: 'viewerQr',
    status: 'CREATED',
    allowed: [],
    success: 200,
    source: 'spec §3 enableSecureViewerQrCodeGeneration: the secure viewer QR exists only with the switch',
  },
  {
    title: 'POST /pdf/generate-viewer-qr on CREATED with enableSecureViewerQrCodeGeneration',
    endpoint: 'viewerQr',
    status: 'CREATED',
    flags: { enableSecureViewerQrCodeGeneration: true },
    allowed: CENTER_USERS,
    success: 200,
    source: 'study-sharing DECISIONS: the QR print is a share, for those who share (center users)',
  },
  {
    title: 'POST /pdf/generate-viewer-qr on CREATED with the QR and radiologistCanSendToReferringDoctor',
    endpoint: 'viewerQr',
    status: 'CREATED',
    flags: { enableSecureViewerQrCodeGeneration: true, radiologistCanSendToReferringDoctor: true },
    allowed: [...CENTER_USERS, 'ROLE_DOCTOR'],
    success: 200,
    source: 'spec §6 doctors share with radiologistCanSendToReferringDoctor; study-sharing DECISIONS',
  },
];
