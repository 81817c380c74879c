/**
 * Every study timeline event (study_events.event_type) and the `detail` each one carries. This map
 * is the one list of event names: `TStudyEventType` is its keys, the server's column is typed with
 * it, so an event name that is not here does not compile anywhere. The meaning, writer and
 * audience of each event are the table in study-events.ts (and the server's
 * modules/study-events/README.md).
 *
 * Payload values are what the writers store today, field for field (a row already stored keeps its
 * shape); `null` means the event carries no detail.
 */
export interface TStudyEventPayloads {
  // ── study actions (modules/study-actions) ──
  DETAILS_UPDATED: { changed: string[] };
  SENT_FOR_REPORTING: { changed: string[] };
  STUDY_PARTS_UPDATED: { from: string[]; to: string[] };
  URGENT_MARKED: null;
  URGENT_UNMARKED: null;
  DELETED: null;
  SPLIT: { splitReportStatusId: number };
  SPLIT_CREATED: { splitFromReportStatusId: number };
  /** No detail when the row held no lock. */
  UNLOCKED: { lockedByUserId: number } | null;
  REWORKED: { deletedReports: number };
  ASSIGNED: { assignedTo: string | null; previousAssignedToUserId: number | null };
  UNASSIGNED: { assignedTo: string | null; previousAssignedToUserId: number | null };
  AUDITOR_ASSIGNED: { auditor: string | null };
  AUDITOR_UNASSIGNED: { auditor: string | null };
  AUDIT_APPROVED: { previous: string | null };
  AUDIT_REJECTED: { previous: string | null };

  // ── reporting (modules/reporting, modules/report-documents) ──
  REPORT_LOCKED: { doctor: string };
  REPORT_SAVED: TReportSavePayload;
  REPORT_SENT_FOR_VERIFICATION: TReportSavePayload;
  REPORT_SIGNED_OFF: TReportSavePayload;
  REPORT_VERIFIED: TReportSavePayload;
  REPORT_ADDENDUM_ADDED: { reportId: number; version: number };
  REPORT_PRINTED: { reprint: boolean };

  // ── tags, audio notes, attachments ──
  TAG_ADDED: TTagPayload;
  TAG_DELETED: TTagPayload;
  TAG_UPDATED: TTagPayload & { wasGlobalTag: boolean };
  AUDIO_ADDED: { audioId: number; contentType: string; byteSize: number; durationMs: number | null };
  AUDIO_DELETED: { audioId: number };
  ATTACHMENT_ADDED: { kind: string; path: string; fileName: string; sizeBytes: number };
  ATTACHMENT_DELETED: { kind: string; path: string; fileName: string };

  // ── forwarding to a PACS ──
  FORWARD_REQUESTED: { sendId: number; aeTitle: string; destination: string };
  FORWARD_RESENT: { sendId: number; instances: number };

  // ── payments (the row's payment status and mode after the change are added by the writer) ──
  PAYMENT_REQUESTED: TPaymentPayload & {
    amountMinor: number;
    currency: string;
    note: string | null;
  };
  PAYMENT_RECORDED: TPaymentPayload & {
    amountMinor: number;
    currency: string;
    mode: string;
    transactionId: string | null;
  };
  PAYMENT_PAID: TPaymentPayload & { amountMinor: number; currency: string; mode: 'ONLINE'; provider: string };
  PAYMENT_CANCELLED: TPaymentPayload & { reason: string };

  // ── sharing ──
  REFERRING_DOCTOR_SAVED: { referringDoctorEmail: string };
  SHARED_BY_MESSAGE: {
    number: string;
    referringPhysician: string | null;
    channels: Array<'SMS' | 'WHATSAPP'>;
  };
  SHARED_BY_EMAIL: { email: string };
  /** A visitor opened the share page: the hashed address + browser, once an hour per visitor. */
  SHARE_OPENED: { visitor: string };

  // ── chat ──
  /** The message itself stays in chat_messages; the event says that one was posted, and to whom. */
  CHAT_MESSAGE_SENT: {
    messageId: number;
    assignedTo: string;
    /** The users named in the message (an @mention), each told 'a message for you'. */
    mentions?: number[];
  };

  // ── critical results (closed loop: raised → delivered → acknowledged, or escalated) ──
  CRITICAL_RESULT_RAISED: { criticalResultId: number; category: string; finding: string };
  /** One per channel and addressee (in-app, SMS, e-mail) as the provider accepted it. */
  CRITICAL_RESULT_DELIVERED: { criticalResultId: number; channel: string; to: string };
  CRITICAL_RESULT_ACKNOWLEDGED: { criticalResultId: number; by: string };
  /** Nobody acknowledged within the group's time: the group admin is told. */
  CRITICAL_RESULT_ESCALATED: { criticalResultId: number; to: string; afterMinutes: number };

  // ── the archive (ingest, upload, create study) ──
  STUDY_CREATED: { source: string; studyInstanceUid: string; labStudyId?: number };
  IMAGES_ATTACHED: { fromStudyId: number; toStudyId: number; studyInstanceUid: string };
  NEW_IMAGES_AFTER_SIGN_OFF: { source: string; studyInstanceUid: string };
  FOREIGN_IMAGES_REFUSED: { source: string; studyInstanceUid: string; centerId: number };
}

/** A report save: the report and version written, the doctor it is for, and a repeated sign-off. */
export type TReportSavePayload = {
  reportId: number;
  version: number;
  doctor: string;
  signedOffAgain?: true;
};

export type TTagPayload = { tagId: number; tag: string; globalTag: boolean };

/** Every payment event names its request and the row's payment state after the change. */
export type TPaymentPayload = {
  paymentId: number;
  paymentStatus: string;
  paymentMode: string | null;
};

/** The name of a study timeline event. */
export type TStudyEventType = keyof TStudyEventPayloads;

/** The `detail` of one event type. */
export type TStudyEventPayload<T extends TStudyEventType> = TStudyEventPayloads[T];
