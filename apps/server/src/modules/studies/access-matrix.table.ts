import type { TGroupFlags, TReportStatus, TRole } from '@radflow/core';
import type { TBusinessEndpoint } from './access-matrix-business.endpoints.js';

/*
 * The EXPECTED access matrix of issue 4 §6: every list and study-action endpoint × every role.
 * Written by hand from spec-core §2 (Menu per role), §4 (Actions offered), §5, §6, §7 and, where the
 * spec is silent, from the decision the project documented (cited per row). It deliberately does not
 * call the core rules the server uses: a table derived from them could never disagree with the server.
 *
 * Reading a row: the roles in `allowed` get `success` on a fresh study in `status` with the group
 * switches `flags` on; roles in `conflict` get 409 (allowed on another status); every other role gets 403. Roles that can see no study at all (SEES_NO_STUDY)
 * get 403 or 404 on endpoints about one study (see refusalFor).
 */

/**
 * The "center users" of spec-core §4/§6 ("center or admin", "Center: mark urgent, …") who act on
 * their center's studies: the center roles without the lab roles (documented decision:
 * packages/core/src/identity/roles.ts isCenterUser; lab staff belong to a center but work in the lab module,
 * spec-core second document) and without ROLE_CENTER_BACKUP (core worklist DECISIONS "Center backup":
 * a backup account keeps copies and is read-only). The matrix study is in each center user's own
 * center; another center's study is read-only for them (center-own-studies.int.test.ts).
 */
export const CENTER_USERS: readonly TRole[] = [
  'ROLE_CENTER',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_CENTER_SHARE_ALL',
  'ROLE_OFFLINE_HYBRID',
];

/**
 * Roles that see no study (issue 4 §1 "Who sees what" gives them none; spec-core §2: the viewer's
 * screen is /share, sales and dashboard viewers have billing and dashboard screens only). A viewer
 * account sees only the studies shared with its e-mail (payments DECISIONS 'Who pays'); the matrix
 * study is not. For them a
 * study does not exist, so an action on it may be refused either before the lookup (403, routes with
 * an onRequest role guard) or by the lookup (404, "invisible studies answer 404": worklist and
 * study-attachments DECISIONS.md). Both are a refusal; which one is not the spec's business.
 */
export const SEES_NO_STUDY: readonly TRole[] = ['ROLE_VIEWER', 'ROLE_RADFLOW_SALES', 'ROLE_DASHBOARD_VIEWER'];

/** Everyone else sees the matrix study (the test attaches, assigns, maps or shares it to each of them). */
export const SEES_STUDY: readonly TRole[] = [
  'ROLE_ADMIN',
  'ROLE_CENTER',
  'ROLE_DOCTOR',
  'ROLE_CENTER_CUSTOMER',
  'ROLE_REFERRING_DOCTOR',
  'ROLE_TYPIST',
  'ROLE_LABS_SUPERVISOR',
  'ROLE_LABS_RECEPTIONIST',
  'ROLE_VERIFIER',
  'ROLE_ASSIGNOR',
  'ROLE_CUSTOMER',
  'ROLE_BILLER',
  'ROLE_TELE_RADIOLOGY',
  'ROLE_GROUP',
  'ROLE_AUDITOR',
  'ROLE_ADMIN_BILLER',
  'ROLE_OFFLINE_HYBRID',
  'ROLE_CENTER_BACKUP',
  'ROLE_CENTER_SHARE_ALL',
];

/**
 * The roles of SEES_STUDY that work on a study's report (write, type, verify, edit as a center,
 * assign, bill, administer): all but spec-core §5's read-only roles. Only they read a report before
 * sign-off, its versions, the timeline, the history papers and the audio notes (security issue §1).
 */
export const READS_REPORT_WORK: readonly TRole[] = SEES_STUDY.filter(
  (r) =>
    ![
      'ROLE_REFERRING_DOCTOR',
      'ROLE_AUDITOR',
      'ROLE_CUSTOMER',
      'ROLE_VIEWER',
      'ROLE_LABS_SUPERVISOR',
      'ROLE_LABS_RECEPTIONIST',
    ].includes(r),
);

/** The endpoints; the test holds one request builder per key. */
export type TEndpoint =
  | 'listStudies'
  | 'listReportStatus'
  | 'studyTypes'
  | 'filmList'
  | 'tagChoices'
  | 'createStudy'
  | 'studyDetail'
  | 'studyHistory'
  | 'studyTimeline'
  | 'attachmentLists'
  | 'studyTags'
  | 'historyDownload'
  | 'urgent'
  | 'markDelete'
  | 'unlock'
  | 'rework'
  | 'split'
  | 'updateDetails'
  | 'addStudyPart'
  | 'assign'
  | 'assignMulti'
  | 'auditorAssign'
  | 'auditStatus'
  | 'historyUpload'
  | 'filmUpload'
  | 'reportAttachmentUpload'
  | 'historyDelete'
  | 'filmDelete'
  | 'reportAttachmentDelete'
  | 'addTag'
  | 'deleteTag'
  | 'updateTag'
  | 'saveReferringDoctor'
  | 'sendMessage'
  | 'sendEmail'
  | TReportingEndpoint
  | TPaymentsEndpoint
  | TBusinessEndpoint;

/** The study payment calls (rows in access-matrix-payments.table.ts). */
export type TPaymentsEndpoint = 'paymentList' | 'paymentRequest' | 'paymentRecord' | 'paymentCancel';

/** The reporting calls of issue 7 (rows in access-matrix-reporting.table.ts). */
export type TReportingEndpoint =
  | 'reportLock'
  | 'reportSave'
  | 'reportSignOff'
  | 'reportRead'
  | 'draftGet'
  | 'draftPut'
  | 'draftDelete'
  | 'templateList'
  | 'templateCreate'
  | 'audioList'
  | 'audioSave'
  | 'audioDelete'
  | 'audioFile'
  | 'pdfDownload'
  | 'pdfDownloadImages'
  | 'pdfWord'
  | 'viewerQr'
  | 'reportMessages';

/** The group switches a row may turn on (all others are off). */
export type TMatrixFlag =
  | 'hideUnlockFromDoctor'
  | 'enableReportRework'
  | 'allowToSplitStudy'
  | 'enableAuditorAssignmentFeature'
  | 'radiologistCanSendToReferringDoctor'
  | 'enableSecureViewerQrCodeGeneration'
  | 'disableDownloadZipForDoctor';
export const MATRIX_FLAGS: readonly TMatrixFlag[] = [
  'hideUnlockFromDoctor',
  'enableReportRework',
  'allowToSplitStudy',
  'enableAuditorAssignmentFeature',
  'radiologistCanSendToReferringDoctor',
  'enableSecureViewerQrCodeGeneration',
  'disableDownloadZipForDoctor',
];

export interface TMatrixRow {
  /** Names the cell: "<title> × <role>". */
  title: string;
  endpoint: TEndpoint;
  /** Status of the fresh study the call acts on; null for calls about no one study. */
  status: TReportStatus | null;
  flags?: Partial<Pick<TGroupFlags, TMatrixFlag>>;
  allowed: readonly TRole[];
  /**
   * Roles that may take the action, but not on this status: 409 naming the status (study-actions
   * study-transition.ts guardStudyAction: a role allowed on some other status is refused by the status).
   */
  conflict?: readonly TRole[];
  /** The exact status an allowed role gets. */
  success: number;
  /** Where the expectation comes from. */
  source: string;
}

export const only = (...roles: TRole[]): readonly TRole[] => roles;

export const MATRIX: readonly TMatrixRow[] = [
  // ---- Lists (spec-core §7 "Lists and summaries") -------------------------------------------------
  {
    title: 'POST /dicom-web/studies/',
    endpoint: 'listStudies',
    status: null,
    allowed: only(
      'ROLE_ADMIN',
      'ROLE_ASSIGNOR',
      'ROLE_VERIFIER',
      'ROLE_BILLER',
      'ROLE_DOCTOR',
      'ROLE_TYPIST',
      'ROLE_REFERRING_DOCTOR',
      'ROLE_AUDITOR',
    ),
    success: 200,
    source:
      'spec §7: the admin/doctor list call; §2 Menu: DOCTOR, TYPIST, REFERRING_DOCTOR, AUDITOR have Study list, ' +
      "ADMIN the admin list; ARCHITECTURE.md: assignor/verifier/biller's home is '/'; worklist DECISIONS 'Who may call'",
  },
  {
    title: 'POST /report-status/',
    endpoint: 'listReportStatus',
    status: null,
    allowed: only(
      'ROLE_ADMIN',
      'ROLE_CENTER',
      'ROLE_CENTER_CUSTOMER',
      'ROLE_CENTER_BACKUP',
      'ROLE_CENTER_SHARE_ALL',
      'ROLE_TELE_RADIOLOGY',
    ),
    success: 200,
    source:
      "spec §7: 'for center, tele and admin patient lists'; ARCHITECTURE.md: center customer, backup, share-all " +
      'and tele home is /status. Lab roles have the lab module; OFFLINE_HYBRID has /hybrid-study-list (its own ' +
      'data source, core worklist/tabs.ts listKindForUser) — so 403',
  },
  {
    title: 'GET /user/study-type',
    endpoint: 'studyTypes',
    status: null,
    allowed: [...SEES_STUDY, ...SEES_NO_STUDY],
    success: 200,
    source: 'spec §7 Session and preferences: a call of every signed-in user (the group study types)',
  },
  {
    title: 'GET /films/get',
    endpoint: 'filmList',
    status: null,
    allowed: [...SEES_STUDY, ...SEES_NO_STUDY],
    success: 200,
    source:
      'spec §7 films/get; study-attachments DECISIONS: films of the studies the caller may see (empty for some)',
  },
  {
    title: 'GET /report-tag/choices',
    endpoint: 'tagChoices',
    status: null,
    allowed: [...SEES_STUDY, ...SEES_NO_STUDY].filter((r) => r !== 'ROLE_CUSTOMER' && r !== 'ROLE_VIEWER'),
    success: 200,
    source:
      "spec silent on tag roles; report-tags DECISIONS 'Who may tag': everyone but viewers and customers " +
      '(outsiders whose texts would leak into the group choices). The choices are no one study, so sales and ' +
      'dashboard viewers (group staff who see no study) are not outsiders here: 200 with what they may see',
  },

  {
    title: 'POST /dicom-web/study/create-from-website',
    endpoint: 'createStudy',
    status: null,
    allowed: only(
      'ROLE_CENTER',
      'ROLE_ADMIN',
      'ROLE_TELE_RADIOLOGY',
      'ROLE_CENTER_CUSTOMER',
      'ROLE_LABS_SUPERVISOR',
      'ROLE_LABS_RECEPTIONIST',
    ),
    success: 200,
    source:
      "spec §5 Create Study ('center users have the center fixed to their own') names no roles; core " +
      'upload-permissions.ts STUDY_UPLOAD_ROLES decision: center, admin, tele-radiology, center customer, lab staff',
  },

  // ---- Reading one study: whoever may see it (issue 4 §1 "Who sees what") -------------------------
  ...(
    [
      ['GET /report-status/id/{id}', 'studyDetail'],
      ['GET /history/{id}', 'studyHistory'],
      ['GET /attachments/{id}', 'attachmentLists'],
      ['GET /report-tag/list/{id}', 'studyTags'],
    ] as const
  ).map(([title, endpoint]): TMatrixRow => ({
    title,
    endpoint,
    status: 'CREATED',
    allowed: SEES_STUDY,
    success: 200,
    source:
      'spec §7 Study actions (reads); issue 4 §1: visibility is the only condition; study-attachments DECISIONS ' +
      "'Who lists and downloads: anyone who can see the study'",
  })),
  {
    title: 'GET /history/download/{id}/{path}/{fileName}',
    endpoint: 'historyDownload',
    status: 'CREATED',
    allowed: READS_REPORT_WORK,
    success: 200,
    source:
      "spec §6 'Center: add/delete history and film attachments'; core readableAttachmentKinds: the history papers " +
      'are for the staff who see the row, not the read-only roles of spec §5 (security issue §1)',
  },
  {
    title: 'GET /report-status/timeline/{id}',
    endpoint: 'studyTimeline',
    status: 'CREATED',
    allowed: READS_REPORT_WORK,
    success: 200,
    source:
      "ours (issue 4 §2 'the study history and the report notification timeline show them'). spec §6 gives the " +
      'timeline BUTTON to center users and assignors; every staff role who sees the row reads it; the read-only ' +
      'roles of spec §5 do not (it names the staff and their steps; security issue §1, core readsReportWork)',
  },

  // ---- State actions (spec-core §4 Actions offered, §6, §7 Study actions) -------------------------
  {
    title: 'POST /report-status/urgent/{id} on CREATED',
    endpoint: 'urgent',
    status: 'CREATED',
    allowed: ['ROLE_ADMIN', ...CENTER_USERS],
    success: 200,
    source: "spec §4 'Mark Urgent: CREATED or HISTORY_CREATED, center or admin'; §6 'Center: mark urgent'",
  },
  {
    title: 'POST /report-status/mark-delete/{id} on CREATED',
    endpoint: 'markDelete',
    status: 'CREATED',
    allowed: CENTER_USERS,
    success: 200,
    source:
      "spec §4 'center only unless the hide-deleted setting is on': the group switch hideDeletedStudies " +
      '(core worklist DECISIONS) is off here, so admins are refused (on: study-actions/hide-deleted-setting)',
  },
  {
    title: 'POST /report-status/mark-delete/{id} on HISTORY_CREATED',
    endpoint: 'markDelete',
    status: 'HISTORY_CREATED',
    allowed: [],
    conflict: CENTER_USERS,
    success: 200,
    source:
      "spec §4 'CREATED, or HISTORY_CREATED for admin': center users may delete, but not a sent study (409, the " +
      'status); admins need the hide-deleted setting (hideDeletedStudies), which is off (403)',
  },
  {
    title: 'POST /report-status/unlock/{id} on SIGNED_OFF',
    endpoint: 'unlock',
    status: 'SIGNED_OFF',
    allowed: only('ROLE_ADMIN', 'ROLE_DOCTOR'),
    success: 200,
    source:
      "spec §4 'Unlock: SIGNED_OFF, LOCKED, REPORTED or DRAFTED; doctors or admin'; §6 'Doctor: unlock'",
  },
  {
    title: 'POST /report-status/unlock/{id} on SIGNED_OFF with hideUnlockFromDoctor',
    endpoint: 'unlock',
    status: 'SIGNED_OFF',
    flags: { hideUnlockFromDoctor: true },
    allowed: only('ROLE_ADMIN'),
    success: 200,
    source:
      "spec §4 'hidden by hideUnlockFromDoctor'; core worklist DECISIONS: the switch hides it from doctors only",
  },
  {
    title: 'POST /report-status/rework/{id} on SIGNED_OFF',
    endpoint: 'rework',
    status: 'SIGNED_OFF',
    allowed: only('ROLE_TELE_RADIOLOGY'),
    success: 200,
    source:
      "spec §4 'Rework: same statuses; … for tele-radiology or when rework is enabled' (it is off here)",
  },
  {
    title: 'POST /report-status/rework/{id} on SIGNED_OFF with enableReportRework',
    endpoint: 'rework',
    status: 'SIGNED_OFF',
    flags: { enableReportRework: true },
    allowed: only('ROLE_TELE_RADIOLOGY', 'ROLE_ADMIN', 'ROLE_DOCTOR'),
    success: 200,
    source:
      "spec §4 names no roles for 'when rework is enabled'; core worklist DECISIONS: admins and doctors " +
      '(those who may unlock) too',
  },
  {
    title: 'POST /report-status/split/{id} on CREATED with allowToSplitStudy',
    endpoint: 'split',
    status: 'CREATED',
    flags: { allowToSplitStudy: true },
    allowed: ['ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_TELE_RADIOLOGY', ...CENTER_USERS],
    success: 200,
    source:
      "spec §4 'Split study … (allowToSplitStudy)' names no roles; core worklist DECISIONS 'Split': admin, " +
      'assignor, center users, tele-radiology',
  },
  {
    title: 'POST /report-status/split/{id} on CREATED without allowToSplitStudy',
    endpoint: 'split',
    status: 'CREATED',
    allowed: [],
    success: 200,
    source: 'spec §4 / §3: split exists only with allowToSplitStudy — nobody may split when it is off',
  },
  {
    title: 'POST /report-status/update-details/{id} on CREATED',
    endpoint: 'updateDetails',
    status: 'CREATED',
    allowed: [
      'ROLE_ADMIN',
      'ROLE_ASSIGNOR',
      'ROLE_VERIFIER',
      'ROLE_BILLER',
      'ROLE_TELE_RADIOLOGY',
      ...CENTER_USERS,
    ],
    success: 200,
    source:
      "spec §4 'Send for reporting' by tele-radiology or center users, §6 'Billers and tele-radiology may open " +
      "history edit'; the rest is core actions.ts STUDY_DETAILS_ROLES (decision: those who manage studies; " +
      'doctors, typists and read-only roles only read)',
  },
  {
    title: 'POST /tele-pricing/add-study-part on CREATED',
    endpoint: 'addStudyPart',
    status: 'CREATED',
    allowed: [
      'ROLE_ADMIN',
      'ROLE_ASSIGNOR',
      'ROLE_VERIFIER',
      'ROLE_BILLER',
      'ROLE_TELE_RADIOLOGY',
      ...CENTER_USERS,
    ],
    success: 200,
    source:
      "spec §4 'Study type editing is disabled for center users on SIGNED_OFF, LOCKED or DELETED' (so allowed on " +
      'CREATED); who edits at all is the Edit details decision above (study-actions update-details.ts)',
  },
  {
    title: 'POST /tele-pricing/add-study-part on SIGNED_OFF',
    endpoint: 'addStudyPart',
    status: 'SIGNED_OFF',
    allowed: only('ROLE_ADMIN', 'ROLE_ASSIGNOR', 'ROLE_VERIFIER', 'ROLE_BILLER', 'ROLE_TELE_RADIOLOGY'),
    conflict: CENTER_USERS,
    success: 200,
    source:
      "spec §4 'Study type editing is disabled for center users on SIGNED_OFF, LOCKED or DELETED': center users " +
      'get 409 (the status refuses, not the role), the other editors keep it',
  },
  {
    title: 'POST /report-status/assign on HISTORY_CREATED',
    endpoint: 'assign',
    status: 'HISTORY_CREATED',
    allowed: only('ROLE_ASSIGNOR', 'ROLE_ADMIN'),
    success: 200,
    source:
      "spec §6 names only multi-assign; core worklist DECISIONS 'Assign: assignor and admin, on open statuses'",
  },
  {
    title: 'POST /report-status/assign-multi on HISTORY_CREATED',
    endpoint: 'assignMulti',
    status: 'HISTORY_CREATED',
    allowed: only('ROLE_ASSIGNOR'),
    success: 200,
    source: "spec §6 'Multi-assign: ROLE_ASSIGNOR only'",
  },
  {
    title: 'POST /report-status/auditor-assign on SIGNED_OFF with enableAuditorAssignmentFeature',
    endpoint: 'auditorAssign',
    status: 'SIGNED_OFF',
    flags: { enableAuditorAssignmentFeature: true },
    allowed: only('ROLE_ADMIN', 'ROLE_ASSIGNOR'),
    success: 200,
    source:
      "spec §3 enableAuditorAssignmentFeature; roles/status not in the spec: core worklist DECISIONS 'Assign " +
      "auditor: admin and assignor, feature on, SIGNED_OFF only'",
  },
  {
    title: 'POST /report-status/auditor-assign on SIGNED_OFF without enableAuditorAssignmentFeature',
    endpoint: 'auditorAssign',
    status: 'SIGNED_OFF',
    allowed: [],
    success: 200,
    source: 'spec §3: auditor assignment is a feature switch; off = nobody',
  },
  {
    title: 'POST /report-status/audit-status/{id} on SIGNED_OFF (the assigned auditor)',
    endpoint: 'auditStatus',
    status: 'SIGNED_OFF',
    allowed: only('ROLE_AUDITOR'),
    success: 200,
    source:
      "spec §4 'Audit approval: APPROVED or REJECTED via a switch' names no roles; core actions.ts " +
      'canSetAuditStatus decision: the auditor assigned to the study only',
  },

  // ---- Attachments (spec-core §6 'Center: add/delete history and film attachments … delete attachments') --
  ...(
    [
      ['POST /history/upload/{id}', 'historyUpload'],
      ['POST /film/upload/{id}', 'filmUpload'],
      ['DELETE /history/delete/{id}/{path}', 'historyDelete'],
      ['DELETE /film/delete/{id}/{path}', 'filmDelete'],
    ] as const
  ).map(([title, endpoint]): TMatrixRow => ({
    title: `${title} on CREATED`,
    endpoint,
    status: 'CREATED',
    allowed: ['ROLE_ADMIN', 'ROLE_TELE_RADIOLOGY', ...CENTER_USERS],
    success: 200,
    source:
      "spec §6 'Center: add/delete history and film attachments'; study-attachments DECISIONS: admins and " +
      'tele-radiology too (they fill in the same details form)',
  })),
  {
    title: 'POST /report-attachment/upload/{id} on CREATED',
    endpoint: 'reportAttachmentUpload',
    status: 'CREATED',
    allowed: only('ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_ADMIN'),
    success: 200,
    source:
      "spec has no upload call; study-attachments DECISIONS 'Who adds report attachments: doctors, typists, admins'",
  },
  {
    title: 'DELETE /report-attachment/delete/{id}/{path} on CREATED',
    endpoint: 'reportAttachmentDelete',
    status: 'CREATED',
    allowed: ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_ADMIN', ...CENTER_USERS],
    success: 200,
    source:
      "spec §6 'Center: … delete attachments'; study-attachments DECISIONS: plus whoever may add that kind",
  },

  // ---- Tags (spec-core §4 Tags, §7 report-tag calls; roles: report-tags DECISIONS) ---------------
  {
    title: 'POST /report-tag/add-tags on CREATED',
    endpoint: 'addTag',
    status: 'CREATED',
    allowed: SEES_STUDY.filter((r) => r !== 'ROLE_CUSTOMER' && r !== 'ROLE_CENTER_BACKUP'),
    success: 200,
    source:
      "report-tags DECISIONS 'Who may tag: anyone who can see the study except viewers and customers'; " +
      "core worklist DECISIONS 'Center backup': read-only",
  },
  {
    title: "DELETE /report-tag/delete (another user's global tag)",
    endpoint: 'deleteTag',
    status: 'CREATED',
    allowed: only('ROLE_ADMIN'),
    success: 200,
    source: "report-tags DECISIONS 'Who changes or deletes: its creator or a group admin; others 403'",
  },
  {
    title: "POST /report-tag/update (another user's global tag → local)",
    endpoint: 'updateTag',
    status: 'CREATED',
    allowed: only('ROLE_ADMIN'),
    success: 200,
    source: "report-tags DECISIONS 'Who changes or deletes: its creator or a group admin; others 403'",
  },

  // ---- Sharing (spec-core §6 Doctor 'may send to referring doctor when radiologistCanSendToReferringDoctor') --
  ...(
    [
      ['POST /report-status/save', 'saveReferringDoctor'],
      ['POST /report-status/send-message/{id}', 'sendMessage'],
      ['POST /report-status/send-email/{id}', 'sendEmail'],
    ] as const
  ).flatMap(([title, endpoint]): TMatrixRow[] => [
    {
      title: `${title} on CREATED`,
      endpoint,
      status: 'CREATED',
      allowed: CENTER_USERS,
      success: 200,
      source:
        'spec §5 centers share before sending, §6 doctors only with the switch (off here); study-sharing ' +
        "DECISIONS 'Who: center users; doctors when radiologistCanSendToReferringDoctor'",
    },
    {
      title: `${title} on CREATED with radiologistCanSendToReferringDoctor`,
      endpoint,
      status: 'CREATED',
      flags: { radiologistCanSendToReferringDoctor: true },
      allowed: [...CENTER_USERS, 'ROLE_DOCTOR'],
      success: 200,
      source:
        "spec §6 'Doctor: … may send to referring doctor when radiologistCanSendToReferringDoctor is on'",
    },
  ]),
];

/** What one cell expects. */
export type TExpectedCell =
  { outcome: 'allowed'; statuses: readonly [number] } | { outcome: 'refused'; statuses: readonly number[] };

/**
 * A cell's expectation: `success` for an allowed role; 403 for a refused role that sees the study;
 * 403 or 404 for a role that can see no study at all (SEES_NO_STUDY) on a call about one study.
 */
export function expectedCell(row: TMatrixRow, role: TRole): TExpectedCell {
  if (row.allowed.includes(role)) return { outcome: 'allowed', statuses: [row.success] };
  if (row.conflict?.includes(role)) return { outcome: 'refused', statuses: [409] };
  if (row.status !== null && SEES_NO_STUDY.includes(role))
    return { outcome: 'refused', statuses: [403, 404] };
  return { outcome: 'refused', statuses: [403] };
}
