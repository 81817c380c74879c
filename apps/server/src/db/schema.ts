import { sql } from 'drizzle-orm';
import {
  BILLING_DOCUMENT_KINDS,
  BILLING_DOCUMENT_STATUSES,
  BILLING_PAYMENT_MODES,
  BILL_STATUSES,
  LINE_CHARGES,
  PRICE_CHARGES,
  PRICE_SIDES,
  PLAN_KINDS,
  PLATFORM_INVOICE_KINDS,
  PLATFORM_INVOICE_STATUSES,
  PLATFORM_PAYMENT_MODES,
  SUBSCRIPTION_STATUSES,
  DEFAULT_LAB_DEPARTMENT,
  LAB_PAYMENT_METHODS,
  LAB_TEST_TYPES,
  PATIENT_DESIGNATIONS,
  PATIENT_GENDERS,
  PAYMENT_MODES,
  SETTLEMENT_STATUSES,
  type TBillCategoryType,
  PAYMENT_REQUEST_STATUSES,
  REPORT_STATUSES,
  REPORT_VERSION_KINDS,
  STUDY_PAYMENT_STATUSES,
  type TChatAssignment,
  type TChatMessage,
  type TChatReference,
  type TChatThreadType,
  type TCriticalResultCategory,
  type TPresenceStatus,
  type TStudyEventType,
} from '@radflow/core';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Identity and settings tables of issue 2 (ARCHITECTURE §3). snake_case columns, timestamptz. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A teleradiology company or hospital group. */
export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * The platform's own group (platform-billing DECISIONS.md): its admin biller and sales users bill
   * every group. A role alone is not enough, since a group admin may hand ROLE_ADMIN_BILLER out.
   */
  platformOperator: boolean('platform_operator').notNull().default(false),
  /**
   * The group's own product name and logo (issue 29 §8, spec-core §7 brand assets): shown on its
   * sign-in page, top bar, share page and documents instead of Radflow's. null = the product's own.
   */
  brandProductName: text('brand_product_name'),
  /** A BRAND_LOGO row of setting_assets (its public address /api/assets/{id}). */
  brandLogoAssetId: text('brand_logo_asset_id'),
  createdAt: createdAt(),
});

/** An imaging center or lab inside a group; its DICOM AE titles map incoming studies to it. */
export const centers = pgTable(
  'centers',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    aeTitles: text('ae_titles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whom the group calls about the center (issue 21 §9). */
    contactName: text('contact_name').notNull().default(''),
    contactMobile: text('contact_mobile'),
    /**
     * The region the group files the center under (issue 24 §3 region dashboard; spec-core §3 names
     * Bihar, Tripura, West Bengal for fixed accounts: here a group admin sets it); '' = none.
     */
    region: text('region').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('centers_group_idx').on(t.groupId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    mobileNumber: text('mobile_number'),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    centerId: integer('center_id').references(() => centers.id),
    /** The display name (spec-core §3 Current user: identifier). */
    identifier: text('identifier').notNull(),
    active: boolean('active').notNull().default(true),
    hybridModeOn: boolean('hybrid_mode_on').notNull().default(false),
    proxyUrl: text('proxy_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_mobile_number_key').on(t.mobileNumber),
    index('users_group_idx').on(t.groupId),
    index('users_center_idx').on(t.centerId),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/** Explicit per-role user lists (e.g. a typist's doctors); they replace the default list for that role. */
export const userMappings = pgTable(
  'user_mappings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    mappedUserId: integer('mapped_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('user_mappings_key').on(t.userId, t.role, t.mappedUserId)],
);

/** Browser sessions. The id is the SHA-256 of the cookie's random token, so a database leak is no session leak. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Personal API tokens for DICOM clients (GET /api/user/token). Only the SHA-256 of the random token is
 * stored; the token is shown once. It works on the DICOMweb routes only, until it expires, its owner
 * revokes it, or the device it was minted from is rejected (modules/credentials/api-token.ts).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the token, so its owner can tell their tokens apart in the list. */
    hint: text('hint').notNull(),
    /** The device of the session that minted it; rejecting that device revokes the token. */
    deviceId: text('device_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_tokens_hash_key').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);

export const DEVICE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

/** Devices a user signed in from, with their approval (spec-core §3 Audit row). */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    deviceName: text('device_name').notNull().default(''),
    status: text('status', { enum: DEVICE_STATUSES }).notNull().default('PENDING'),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_user_device_key').on(t.userId, t.deviceId),
    check('devices_status_check', sql`${t.status} in ('PENDING', 'APPROVED', 'REJECTED')`),
  ],
);

/** The sign-in audit log; also the source of the rate limits, so they hold across processes. */
export const loginEvents = pgTable(
  'login_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventType: text('event_type').notNull(),
    /** The identifier as typed (lower-cased) for failures, else the user's e-mail. */
    email: text('email'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    deviceId: text('device_id'),
    deviceName: text('device_name'),
    clientAddress: text('client_address'),
    actorEmail: text('actor_email'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_events_email_idx').on(t.email, t.createdAt),
    index('login_events_address_idx').on(t.clientAddress, t.createdAt),
    index('login_events_user_idx').on(t.userId, t.createdAt),
  ],
);

export const OTP_PURPOSES = ['SIGN_IN', 'SIGN_UP'] as const;
export type TOtpPurpose = (typeof OTP_PURPOSES)[number];

/** One-time codes (sign-in, a group's sign-up); only a keyed hash of the code is kept. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    mobile: text('mobile').notNull(),
    /** What the code is for: a sign-up code never signs in, nor a sign-in code signs up. */
    purpose: text('purpose', { enum: OTP_PURPOSES }).notNull().default('SIGN_IN'),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_mobile_idx').on(t.mobile, t.createdAt)],
);

export const OUTBOX_CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL'] as const;
export const OUTBOX_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;

/** Messages to the outside world as the outbox providers record them (ARCHITECTURE §7). */
export const messageOutbox = pgTable(
  'message_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('PENDING'),
    /** The study row the message is about (its delivery status is shown with the row's shares). */
    reportStatusId: integer('report_status_id'),
    /** The billing document (tele invoice, credit note) the e-mail sends: its detail lists them. */
    billingDocumentId: integer('billing_document_id'),
    /** File names sent with an e-mail (the report PDF); the files themselves are not kept. */
    attachments: text('attachments')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Why a send failed, as the provider answered (FAILED only). */
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('message_outbox_recipient_idx').on(t.recipient, t.createdAt),
    index('message_outbox_report_status_idx').on(t.reportStatusId, t.createdAt),
    index('message_outbox_billing_document_idx').on(t.billingDocumentId, t.createdAt),
    check('message_outbox_channel_check', sql`${t.channel} in ('SMS', 'WHATSAPP', 'EMAIL')`),
  ],
);

/** CENTER holds a center's own sections (series names, lab slots, categories, departments). */
export const PREFERENCE_SCOPES = ['GROUP', 'CENTER', 'USER'] as const;

/** Stored preference sections (spec-core §3 User preferences); missing fields take core defaults. */
export const preferences = pgTable(
  'preferences',
  {
    id: serial('id').primaryKey(),
    scope: text('scope', { enum: PREFERENCE_SCOPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    section: text('section').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [
    uniqueIndex('preferences_scope_owner_section_key').on(t.scope, t.ownerId, t.section),
    check('preferences_scope_check', sql`${t.scope} in ('GROUP', 'CENTER', 'USER')`),
  ],
);

export const studyTypes = pgTable(
  'study_types',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    name: text('name').notNull(),
    modality: text('modality').notNull(),
  },
  (t) => [uniqueIndex('study_types_group_name_key').on(t.groupId, t.name)],
);

/** Server secrets generated once and shared by every process through the database (ARCHITECTURE §8). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export const PASSWORD_LINK_PURPOSES = ['INVITE', 'RESET'] as const;

/**
 * Set-password links of an invitation or an admin's password reset (modules/people/DECISIONS.md):
 * random, only their SHA-256 kept, expiring, single use; a new link of a user replaces the old ones.
 */
export const passwordLinks = pgTable(
  'password_links',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: PASSWORD_LINK_PURPOSES }).notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_links_hash_key').on(t.tokenHash),
    index('password_links_user_idx').on(t.userId),
    check('password_links_purpose_check', sql`${t.purpose} in ('INVITE', 'RESET')`),
  ],
);

/**
 * The group admin's changes to centers and users (issue 21 §9: every change is audited): one row per
 * change, written in the transaction that makes it, with what changed in `detail`.
 */
export const peopleAudit = pgTable(
  'people_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    action: text('action').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    targetType: text('target_type', { enum: ['CENTER', 'USER'] }).notNull(),
    targetId: integer('target_id').notNull(),
    detail: jsonb('detail')
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    index('people_audit_group_created_idx').on(t.groupId, t.createdAt),
    index('people_audit_target_idx').on(t.targetType, t.targetId),
  ],
);

export type TUserRow = typeof users.$inferSelect;
export type TDeviceRow = typeof devices.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Imaging archive (issue 3). The index answers every query; files are read only to send their bytes.
// ---------------------------------------------------------------------------------------------------

/**
 * A DICOM study as the archive holds it, one per (group, Study Instance UID): a study re-sent by
 * another center of the same group joins the same row. Worklist fields are copied here from the
 * first instance (and completed by later ones) so that lists never read instance metadata.
 */
export const studies = pgTable(
  'studies',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    /** The center whose upload created the study. */
    centerId: integer('center_id')
      .notNull()
      .references(() => centers.id),
    studyInstanceUid: text('study_instance_uid').notNull(),
    patientName: text('patient_name').notNull().default(''),
    patientId: text('patient_id').notNull().default(''),
    /**
     * Issuer of Patient ID (0010,0021) as received: with the id, who the patient is (priors, viewer
     * DECISIONS.md). '' when the files carry none (migration 0023 filled older rows from their metadata).
     */
    issuerOfPatientId: text('issuer_of_patient_id').notNull().default(''),
    patientSex: text('patient_sex').notNull().default(''),
    patientAge: text('patient_age').notNull().default(''),
    patientBirthDate: text('patient_birth_date').notNull().default(''),
    /** DICOM DA (YYYYMMDD) and TM as received. */
    studyDate: text('study_date').notNull().default(''),
    studyTime: text('study_time').notNull().default(''),
    studyDescription: text('study_description').notNull().default(''),
    accessionNumber: text('accession_number').notNull().default(''),
    /** DICOM Study ID (0020,0010). */
    studyIdentifier: text('study_identifier').notNull().default(''),
    institutionName: text('institution_name').notNull().default(''),
    referringPhysicianName: text('referring_physician_name').notNull().default(''),
    /** ModalitiesInStudy, kept sorted and distinct. */
    modalities: text('modalities')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    seriesCount: integer('series_count').notNull().default(0),
    instanceCount: integer('instance_count').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** When the latest instance arrived; the upload counts as complete after a quiet time. */
    lastInstanceAt: timestamp('last_instance_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('studies_group_uid_key').on(t.groupId, t.studyInstanceUid),
    index('studies_center_idx').on(t.centerId),
    index('studies_patient_id_idx').on(t.groupId, t.patientId),
    index('studies_patient_name_trgm_idx').using('gin', sql`${t.patientName} gin_trgm_ops`),
    index('studies_study_date_idx').on(t.groupId, t.studyDate),
    index('studies_accession_idx').on(t.groupId, t.accessionNumber),
  ],
);

export const series = pgTable(
  'series',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    modality: text('modality').notNull().default(''),
    seriesDescription: text('series_description').notNull().default(''),
    seriesNumber: integer('series_number'),
    bodyPartExamined: text('body_part_examined').notNull().default(''),
    instanceCount: integer('instance_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('series_study_uid_key').on(t.studyId, t.seriesInstanceUid)],
);

export const INSTANCE_SOURCES = ['STOW', 'DIMSE', 'UPLOAD', 'ROUTER'] as const;

/**
 * One stored SOP instance. `metadata` is its PS3.18 JSON (pixel data as a BulkDataURI) so series
 * metadata is one indexed read; `frames` holds each frame's byte range in the stored file so a frame
 * is one ranged read.
 */
export const instances = pgTable(
  'instances',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    seriesId: integer('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    sopClassUid: text('sop_class_uid').notNull(),
    transferSyntaxUid: text('transfer_syntax_uid').notNull(),
    instanceNumber: integer('instance_number'),
    numberOfFrames: integer('number_of_frames').notNull().default(1),
    rows: integer('rows'),
    columns: integer('columns'),
    /** Key of the byte-for-byte copy in the blob store. */
    blobKey: text('blob_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** `json`, not `jsonb`: the text is kept as written, so series metadata is a string_agg, not a re-serialisation. */
    metadata: json('metadata').notNull(),
    /** [offset, length] of each frame's bytes in the stored file, or null when it has no pixel data. */
    frames: jsonb('frames').$type<Array<[number, number]> | null>(),
    source: text('source', { enum: INSTANCE_SOURCES }).notNull(),
    callingAet: text('calling_aet'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('instances_study_sop_key').on(t.studyId, t.sopInstanceUid),
    index('instances_series_idx').on(t.seriesId, t.instanceNumber),
  ],
);

/**
 * The workflow row of a study (spec-core §3 "Study / report-status row"); its `id` is the numeric
 * id every study call uses. A split study is a second row pointing at the same archive study.
 */
export const reportStatuses = pgTable(
  'report_statuses',
  {
    id: serial('id').primaryKey(),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    centerId: integer('center_id')
      .notNull()
      .references(() => centers.id),
    /** 2 for studies held by this archive (spec-core §5 download rule: apiVersion above 1). */
    apiVersion: integer('api_version').notNull().default(2),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('CREATED'),
    urgent: boolean('urgent').notNull().default(false),
    /** Set when the study was created from the website form rather than from DICOM. */
    createdFromWebsite: boolean('created_from_website').notNull().default(false),
    studyName: text('study_name').notNull().default(''),
    history: text('history').notNull().default(''),
    /** Hospital patient id from the Create Study form (spec-core §5: at most 20 characters). */
    uhid: text('uhid').notNull().default(''),
    invoiceNumber: text('invoice_number').notNull().default(''),
    splitFromReportStatusId: integer('split_from_report_status_id'),
    /*
     * The worklist's view of the patient and the order (issue 4). Copied from the study's DICOM
     * header when the row is made, then edited by the details form; the studies row keeps what DICOM
     * said. Kept here so that the lists filter and sort on one table with its own indexes.
     */
    patientName: text('patient_name').notNull().default(''),
    patientId: text('patient_id').notNull().default(''),
    patientSex: text('patient_sex').notNull().default(''),
    patientAge: text('patient_age').notNull().default(''),
    referringPhysicianName: text('referring_physician_name').notNull().default(''),
    /**
     * The modality the clerk chose in Create Study (issue 21 §4); '' = what DICOM says
     * (`studies.modalities`). Read through `rowModality` (db/row-modality.ts).
     */
    modality: text('modality').notNull().default(''),
    referringPhysicianEmail: text('referring_physician_email'),
    consultingDoctorEmails: text('consulting_doctor_emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    accessionNumber: text('accession_number').notNull().default(''),
    department: text('department'),
    /** The patient's mobile (spec-core §3 mobileNumber) and e-mail. */
    mobileNumber: text('mobile_number'),
    email: text('email'),
    /** spec-core §3 reportStudyPart: the study types (body parts) billed for this study. */
    studyParts: text('study_parts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The doctor the study is assigned to (spec-core §3 assignedTo), and when. */
    assignedToUserId: integer('assigned_to_user_id').references(() => users.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /** The doctor who holds the report lock (status LOCKED), if any. */
    lockedByUserId: integer('locked_by_user_id').references(() => users.id),
    /** The auditor assigned to review the signed-off report, and their verdict. */
    auditorUserId: integer('auditor_user_id').references(() => users.id),
    auditStatus: text('audit_status', { enum: ['APPROVED', 'REJECTED'] }),
    /** The referring doctor (a ROLE_REFERRING_DOCTOR user) the study was shared with. */
    referringDoctorUserId: integer('referring_doctor_user_id').references(() => users.id),
    /** All reports were deleted by a rework (spec-core §4 Rework alert). */
    reworked: boolean('reworked').notNull().default(false),
    /** Signed off again after the center printed it: the center must re-print (Reprint Needed tab). */
    signedOffAfterPrint: boolean('signed_off_after_print').notNull().default(false),
    printedAt: timestamp('printed_at', { withTimezone: true }),
    signedOffAt: timestamp('signed_off_at', { withTimezone: true }),
    /**
     * When images last arrived while the row was SIGNED_OFF (archive DECISIONS.md "images after
     * sign-off"): the lists flag the row while this is later than `signedOffAt`; the report stays.
     */
    newImagesAfterSignOffAt: timestamp('new_images_after_sign_off_at', { withTimezone: true }),
    firstSignedOffAt: timestamp('first_signed_off_at', { withTimezone: true }),
    shareLink: text('share_link'),
    /** When the share link was made (its expiry counts from here; a new link starts again). */
    shareLinkCreatedAt: timestamp('share_link_created_at', { withTimezone: true }),
    sharedEmails: text('shared_emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sharedNumbers: text('shared_numbers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dunningLabels: text('dunning_labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** spec-core §3 paymentStatus / paymentMode, kept by the payments module from study_payments. */
    paymentStatus: text('payment_status', { enum: STUDY_PAYMENT_STATUSES }).notNull().default('NOT_REQUIRED'),
    paymentMode: text('payment_mode', { enum: PAYMENT_MODES }),
    backedUpAt: timestamp('backed_up_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    firstUploadCompletedAt: timestamp('first_upload_completed_at', { withTimezone: true }),
    lastUploadCompletedAt: timestamp('last_upload_completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_statuses_study_idx').on(t.studyId),
    // One row per study (issue 21 §3; archive DECISIONS.md "one row per study"): a study belongs to
    // one center, so this is one row per (center, Study Instance UID). A split child is the only
    // second row.
    uniqueIndex('report_statuses_one_row_per_study_key')
      .on(t.studyId)
      .where(sql`${t.splitFromReportStatusId} is null`),
    index('report_statuses_group_status_idx').on(t.groupId, t.status, t.id),
    index('report_statuses_center_idx').on(t.centerId, t.id),
    index('report_statuses_assigned_idx').on(t.assignedToUserId, t.status, t.id),
    index('report_statuses_auditor_idx').on(t.auditorUserId, t.id),
    index('report_statuses_referring_doctor_idx').on(t.referringDoctorUserId, t.id),
    index('report_statuses_split_from_idx').on(t.splitFromReportStatusId),
    // The public share page finds its row by the link token (issue 7 §5).
    uniqueIndex('report_statuses_share_link_key')
      .on(t.shareLink)
      .where(sql`${t.shareLink} is not null`),
    // The worklist (apps/server/src/modules/worklist/DECISIONS.md "Indexes"): a date range sorted by
    // id reads these without touching the table.
    index('report_statuses_group_created_idx').on(t.groupId, t.createdAt, t.id),
    index('report_statuses_center_created_idx').on(t.centerId, t.createdAt, t.id),
    // The dashboards' signed-off rows of a range (issue 24 §3): first sign-off within the group.
    index('report_statuses_group_first_signed_off_idx')
      .on(t.groupId, t.firstSignedOffAt)
      .where(sql`first_signed_off_at is not null`),
    // The summaries (summaries/DECISIONS.md "Indexes"). By sign-off time: a group's or a center's
    // range of signed_off_at, read from the index and sorted by id; rows never signed off stay out.
    // A center's calls carry its group too (the one access rule): with the group in the key the
    // range is one index condition, where (center, date) alone let the planner AND it with a
    // bitmap of the group's whole gin entry (117,000 entries, 40-90 ms on PGlite).
    index('report_statuses_group_signed_off_idx')
      .on(t.groupId, t.signedOffAt, t.id)
      .where(sql`${t.signedOffAt} is not null`),
    index('report_statuses_group_center_signed_off_idx')
      .on(t.groupId, t.centerId, t.signedOffAt, t.id)
      .where(sql`${t.signedOffAt} is not null`),
    index('report_statuses_group_center_created_idx').on(t.groupId, t.centerId, t.createdAt, t.id),
    // The open rows (2-3 % of a live table): every Pending, Unassigned, Assigned, Urgent tab and the
    // doctors' pool are counted from this small index alone.
    index('report_statuses_open_idx')
      .on(t.groupId, t.status, t.assignedToUserId, t.lockedByUserId, t.urgent, t.id)
      .where(sql`status in ('CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED')`),
    // Part of a patient name within the group (btree_gin: the group and the trigrams in one index),
    // so the planner prefers it to walking the name-sort index below for a name filter. On
    // lower(patient_name): the filter is `lower(patient_name) like lower(pattern)` (ILIKE lowers the
    // pattern again for every row; worklist DECISIONS.md "Throughput").
    index('report_statuses_group_lower_patient_name_trgm_idx').using(
      'gin',
      t.groupId,
      sql`lower(${t.patientName}) gin_trgm_ops`,
    ),
    // A name filter's first pages, newest first: walked backwards by id within the group reading the
    // name from the index, with no visit to the table (patient_name is a key column only because
    // drizzle has no INCLUDE; it never orders anything here).
    index('report_statuses_group_id_patient_name_idx').on(t.groupId, t.id, t.patientName),
    // A group's list sorted by patient name: a page is read in order instead of sorting the group.
    index('report_statuses_group_patient_name_idx').on(t.groupId, t.patientName, t.id),
    index('report_statuses_patient_id_idx').on(t.groupId, t.patientId),
    check(
      'report_statuses_payment_status_check',
      sql`${t.paymentStatus} in ('NOT_REQUIRED', 'PENDING', 'PAID')`,
    ),
    // share-info asks "a pending payment on a study shared with this e-mail": the few pending rows.
    index('report_statuses_payment_pending_idx')
      .on(t.groupId, t.id)
      .where(sql`payment_status = 'PENDING'`),
    check(
      'report_statuses_status_check',
      sql`${t.status} in ('CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED', 'SIGNED_OFF', 'DELETED')`,
    ),
  ],
);

/**
 * The study timeline (spec-core §2 "study history view", "report notification timeline"): every state
 * change and action, written in the same transaction as the change.
 */
export const studyEvents = pgTable(
  'study_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    /** One of core's study events: a name not in the union does not compile (write it with recordStudyEvent). */
    eventType: text('event_type').$type<TStudyEventType>().notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who acted when no user did (a modality's AE title, the system). */
    actorLabel: text('actor_label'),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    detail: jsonb('detail'),
    createdAt: createdAt(),
  },
  (t) => [
    index('study_events_report_idx').on(t.reportStatusId, t.createdAt),
    /*
     * The bell (modules/notifications) reads the recent events of the types some bell hears, newest
     * first: this index serves the type list and the time window without scanning the timeline.
     */
    index('study_events_type_time_idx').on(t.eventType, t.createdAt),
  ],
);

/**
 * The archive's audit log of refused ingests (archive DECISIONS.md "instance ownership"): an
 * instance sent by a center for a study another center of the group stored first. One row per
 * instance, written in the ingest's transaction; nothing of the instance is kept.
 */
export const ingestRefusals = pgTable(
  'ingest_refusals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    /** The center that sent the instance (not the study's). */
    centerId: integer('center_id')
      .notNull()
      .references(() => centers.id),
    /** The study it was refused for (another center's). */
    studyId: integer('study_id').references(() => studies.id, { onDelete: 'set null' }),
    studyInstanceUid: text('study_instance_uid').notNull(),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    sopClassUid: text('sop_class_uid').notNull(),
    source: text('source', { enum: INSTANCE_SOURCES }).notNull(),
    callingAet: text('calling_aet'),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The refused file's hash (its bytes are not kept). */
    sha256: text('sha256').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ingest_refusals_group_created_idx').on(t.groupId, t.createdAt),
    index('ingest_refusals_study_idx').on(t.studyId),
  ],
);

/**
 * How far each ingest journal has been indexed (archive ARCHIVE.md "acknowledge before indexing"):
 * written in the same transaction as the batch it ends, so a replay after a crash starts exactly
 * after it. One row per journal (a server's DATA_DIR/journal names itself in its `journal-id`).
 */
export const ingestJournalPositions = pgTable('ingest_journal_positions', {
  journalId: text('journal_id').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TStudyRow = typeof studies.$inferSelect;
export type TSeriesRow = typeof series.$inferSelect;
export type TInstanceRow = typeof instances.$inferSelect;
export type TReportStatusRow = typeof reportStatuses.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Forwarding to a PACS (issue 3 §6). Design note: src/modules/forwarding/FORWARDING.md.
// ---------------------------------------------------------------------------------------------------

export const ATTACHMENT_KINDS = ['HISTORY', 'FILM', 'REPORT'] as const;
export type TAttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/**
 * Files attached to a study (spec-core §3 historyAttachment / filmAttachment / reportAttachment):
 * the bytes in the blob store under `blobKey`, the row here. `path` is the opaque name the API uses.
 */
export const studyAttachments = pgTable(
  'study_attachments',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ATTACHMENT_KINDS }).notNull(),
    path: text('path').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('study_attachments_report_idx').on(t.reportStatusId, t.kind, t.createdAt),
    uniqueIndex('study_attachments_path_key').on(t.path),
  ],
);

/**
 * Tags on a study (spec-core §3 tag / reportTags). A global tag is offered to the whole group; a
 * local one only to the user who made it.
 */
export const reportTags = pgTable(
  'report_tags',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    tag: text('tag').notNull(),
    globalTag: boolean('global_tag').notNull().default(false),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('report_tags_report_tag_key').on(t.reportStatusId, t.tag),
    index('report_tags_group_tag_idx').on(t.groupId, t.tag),
  ],
);

/** A center's forwarding PACS (spec-lab §3 settings object: aeTitle, ip, port). */
export const forwardingPacs = pgTable(
  'forwarding_pacs',
  {
    id: serial('id').primaryKey(),
    centerId: integer('center_id')
      .notNull()
      .references(() => centers.id, { onDelete: 'cascade' }),
    name: text('name'),
    aeTitle: text('ae_title').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('forwarding_pacs_center_idx').on(t.centerId),
    check('forwarding_pacs_port_check', sql`${t.port} between 1 and 65535`),
  ],
);

export const FORWARD_SEND_STATUSES = ['IN_PROGRESS', 'FAILED', 'SEND'] as const;
export const FORWARD_INSTANCE_STATUSES = ['PENDING', 'SEND', 'FAILED'] as const;

/**
 * One send of a study to one destination (spec-core §3 Router-send record). The destination is
 * copied, so deleting or editing the PACS entry does not change where a running send goes.
 */
export const forwardSends = pgTable(
  'forward_sends',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    studyInstanceUid: text('study_instance_uid').notNull(),
    pacsId: integer('pacs_id').references(() => forwardingPacs.id, { onDelete: 'set null' }),
    aeTitle: text('ae_title').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    status: text('status', { enum: FORWARD_SEND_STATUSES }).notNull().default('IN_PROGRESS'),
    lastError: text('last_error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('forward_sends_report_idx').on(t.reportStatusId, t.createdAt),
    check('forward_sends_status_check', sql`${t.status} in ('IN_PROGRESS', 'FAILED', 'SEND')`),
  ],
);

/**
 * One instance of a send (spec-core §3 instanceSendStatuses). The worker claims due rows
 * (`next_attempt_at` reached, no live lease) with FOR UPDATE SKIP LOCKED; a FAILED row with a
 * `next_attempt_at` is retried, one without it has used up its attempts.
 */
export const forwardSendInstances = pgTable(
  'forward_send_instances',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sendId: integer('send_id')
      .notNull()
      .references(() => forwardSends.id, { onDelete: 'cascade' }),
    instanceId: bigint('instance_id', { mode: 'number' })
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    status: text('status', { enum: FORWARD_INSTANCE_STATUSES }).notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A worker holds the row until then; after a crash another worker takes it over. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('forward_send_instances_send_instance_key').on(t.sendId, t.instanceId),
    index('forward_send_instances_due_idx').on(t.nextAttemptAt),
    check('forward_send_instances_status_check', sql`${t.status} in ('PENDING', 'SEND', 'FAILED')`),
  ],
);

export type TForwardingPacsRow = typeof forwardingPacs.$inferSelect;
export type TForwardSendRow = typeof forwardSends.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Jobs (issue 3 §5). pg-boss queues the work; this table is the record the web polls.
// ---------------------------------------------------------------------------------------------------

export const JOB_RUN_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

/**
 * One run of a job for a study (spec-core §3 Job and its progress record). At most one QUEUED or
 * RUNNING run per (job name, report) — a partial unique index, so two processes racing to queue
 * the same job get one run. `resultBlobKey` is what a finished run produced (the zip).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobName: text('job_name').notNull(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    /** A series the job is limited to, as sent (not used by the zip job). */
    seriesId: text('series_id'),
    status: text('status', { enum: JOB_RUN_STATUSES }).notNull().default('QUEUED'),
    error: text('error'),
    /** The request's options: zipAnonymizationTypeEnum, recreateZip and the variant they gave. */
    params: jsonb('params').notNull().default({}),
    numberOfJob: integer('number_of_job').notNull().default(0),
    completedJob: integer('completed_job').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    fileDownloadProgress: integer('file_download_progress').notNull().default(0),
    patientName: text('patient_name').notNull().default(''),
    /** The pg-boss job carrying this run, to notice a run whose worker died. */
    queueJobId: text('queue_job_id'),
    resultBlobKey: text('result_blob_key'),
    resultSizeBytes: bigint('result_size_bytes', { mode: 'number' }),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_active_key')
      .on(t.jobName, t.reportStatusId)
      .where(sql`${t.status} in ('QUEUED', 'RUNNING')`),
    index('jobs_report_idx').on(t.reportStatusId, t.jobName, t.id),
    check('jobs_status_check', sql`${t.status} in ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED')`),
  ],
);

export type TJobRow = typeof jobs.$inferSelect;

// ---------------------------------------------------------------------------------------------------
// Viewer (issue 5): measurements, arrows and key images saved per report row
// (apps/server/src/modules/viewer/DECISIONS.md).
// ---------------------------------------------------------------------------------------------------

/**
 * One Cornerstone annotation (a measurement or an arrow) drawn on a frame of the study, kept per
 * report row like a presentation state: everyone who may see the row sees it. `data` is the
 * annotation's serialisable part as the viewer sent it (at most 32 KB, checked by the core schema).
 */
export const viewerAnnotations = pgTable(
  'viewer_annotations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    /** The viewer's own id of the annotation (Cornerstone's annotationUID). */
    annotationUid: text('annotation_uid').notNull(),
    toolName: text('tool_name').notNull(),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    /** 1-based. */
    frameNumber: integer('frame_number').notNull().default(1),
    data: jsonb('data').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('viewer_annotations_report_uid_key').on(t.reportStatusId, t.annotationUid)],
);

/** A frame marked as a key image of the report row (the Reporting issue puts them into the report). */
export const viewerKeyImages = pgTable(
  'viewer_key_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    seriesInstanceUid: text('series_instance_uid').notNull(),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    /** 1-based. */
    frameNumber: integer('frame_number').notNull().default(1),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('viewer_key_images_report_frame_key').on(t.reportStatusId, t.sopInstanceUid, t.frameNumber),
  ],
);

// ---------------------------------------------------------------------------------------------------
// Settings (issue 6): uploaded images, signatures, report page layouts, lab invoice prefixes and the
// audit of group setting changes (apps/server/src/modules/preferences/DECISIONS.md).
// ---------------------------------------------------------------------------------------------------

/**
 * An image uploaded from the settings (center logo, billing logo, header/footer, signature). The
 * bytes live in the blob store under `blobKey`; the random id is the public address, so a report
 * opened from a share link can show the image without a session.
 */
export const settingAssets = pgTable(
  'setting_assets',
  {
    id: text('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    uploadedByUserId: integer('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    assetType: text('asset_type').notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    blobKey: text('blob_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('setting_assets_group_idx').on(t.groupId)],
);

/** A user's signature for reports (spec-lab §3 signature: name and image). */
export const userSignatures = pgTable('user_signatures', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The footer text under the signature (spec-lab §5: required). */
  name: text('name').notNull(),
  imageAssetId: text('image_asset_id').references(() => settingAssets.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const LAYOUT_SCOPES = ['CENTER', 'GROUP', 'USER'] as const;

/**
 * The report page layout (spec-lab §3 PDF margins: top, bottom, left, right in cm plus header and
 * footer png images), kept for a center, a group or one user (who owns it: DECISIONS.md).
 */
export const reportLayouts = pgTable(
  'report_layouts',
  {
    id: serial('id').primaryKey(),
    scope: text('scope', { enum: LAYOUT_SCOPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    marginTopCm: numeric('margin_top_cm', { precision: 5, scale: 2 }).notNull(),
    marginBottomCm: numeric('margin_bottom_cm', { precision: 5, scale: 2 }).notNull(),
    marginLeftCm: numeric('margin_left_cm', { precision: 5, scale: 2 }).notNull(),
    marginRightCm: numeric('margin_right_cm', { precision: 5, scale: 2 }).notNull(),
    headerAssetId: text('header_asset_id').references(() => settingAssets.id),
    footerAssetId: text('footer_asset_id').references(() => settingAssets.id),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_layouts_scope_owner_key').on(t.scope, t.ownerId),
    check('report_layouts_scope_check', sql`${t.scope} in ('CENTER', 'GROUP', 'USER')`),
  ],
);

export const LAB_PREFIX_SCOPES = ['CENTER', 'GROUP'] as const;

/**
 * The lab's invoice and UHID numbering (spec-lab §3 lab prefix): the next number of each is its
 * sequence; kept for the lab user's center, or the group when the user has no center.
 */
export const labPrefixes = pgTable(
  'lab_prefixes',
  {
    id: serial('id').primaryKey(),
    scope: text('scope', { enum: LAB_PREFIX_SCOPES }).notNull(),
    ownerId: integer('owner_id').notNull(),
    prefix: text('prefix').notNull(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    uhidPrefix: text('uhid_prefix').notNull(),
    uhidSequence: bigint('uhid_sequence', { mode: 'number' }).notNull(),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lab_prefixes_scope_owner_key').on(t.scope, t.ownerId)],
);

/**
 * Who changed which group setting, from what to what, when (issue 6 §3: group switches are audited).
 * One row per changed field, written in the transaction that saves the section.
 */
export const settingChanges = pgTable(
  'setting_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    section: text('section').notNull(),
    field: text('field').notNull(),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    changedByUserId: integer('changed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    changedBy: text('changed_by').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('setting_changes_group_changed_idx').on(t.groupId, t.changedAt)],
);

/**
 * Who had a study open in the viewer, and when last (spec-core §6: assignors with showActiveInViewer
 * see the top 3 recently active viewer users). One row per study and user, its time moved forward by
 * the viewer's heartbeat while the page is open and visible.
 */
export const viewerActivity = pgTable(
  'viewer_activity',
  {
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.reportStatusId, t.userId] }),
    index('viewer_activity_report_recent_idx').on(t.reportStatusId, t.lastActiveAt),
  ],
);

// ---------------------------------------------------------------------------------------------------
// Reporting (issue 7): the reports of a report row with every saved version, and report templates
// (apps/server/src/modules/reporting/DECISIONS.md).
// ---------------------------------------------------------------------------------------------------

/**
 * A report of a report row (spec-core §3 `reports`): the current text, the doctor it belongs to and
 * who typed it, and once signed off the signature as it was then (a later signature change does not
 * rewrite a signed report). An addendum after sign-off is a report of its own (`isAddendum`), signed
 * when written. Rework deletes every report of the row (the versions go with them).
 */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentHtml: text('content_html').notNull(),
    /** The doctor the report belongs to (whose signature it carries). */
    doctorUserId: integer('doctor_user_id')
      .notNull()
      .references(() => users.id),
    /** Who last typed it (the doctor, or a typist for them). */
    typedByUserId: integer('typed_by_user_id')
      .notNull()
      .references(() => users.id),
    isAddendum: boolean('is_addendum').notNull().default(false),
    /** Signed off by the doctor while the group's verification applies: waits for a verifier. */
    awaitingVerification: boolean('awaiting_verification').notNull().default(false),
    verifiedByUserId: integer('verified_by_user_id').references(() => users.id),
    signedOffByUserId: integer('signed_off_by_user_id').references(() => users.id),
    signedOffAt: timestamp('signed_off_at', { withTimezone: true }),
    signatureName: text('signature_name'),
    signatureAssetId: text('signature_asset_id').references(() => settingAssets.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reports_report_status_idx').on(t.reportStatusId, t.id),
    // A doctor's recent sign-offs, newest first (turnaround at risk reads their pace from them).
    index('reports_signed_off_by_idx')
      .on(t.signedOffByUserId, t.signedOffAt)
      .where(sql`${t.signedOffAt} is not null`),
  ],
);

/** Every save of a report (issue 7 §2 "every saved version is kept (who, when, content)"). */
export const reportVersions = pgTable(
  'report_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    contentHtml: text('content_html').notNull(),
    kind: text('kind', { enum: REPORT_VERSION_KINDS }).notNull(),
    savedByUserId: integer('saved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_versions_report_version_key').on(t.reportId, t.version),
    check('report_versions_kind_check', sql`${t.kind} in ('SAVE', 'SIGN_OFF', 'ADDENDUM')`),
  ],
);

/**
 * A report template (issue 7 §1 /template-page): a user's own, tagged with the modalities, body parts
 * and gender it fits (empty lists and a null gender fit any study). Name unique per owner.
 */
export const reportTemplates = pgTable(
  'report_templates',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentHtml: text('content_html').notNull(),
    modalities: text('modalities')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    bodyParts: text('body_parts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    gender: text('gender', { enum: ['M', 'F', 'O'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_templates_owner_name_key').on(t.ownerUserId, t.name),
    index('report_templates_group_idx').on(t.groupId),
    check('report_templates_gender_check', sql`${t.gender} is null or ${t.gender} in ('M', 'F', 'O')`),
  ],
);

/**
 * A report's audio notes (spec-core §2 audio recordings, §7 /report-audio/...): recorded in the
 * browser, kept in the blob store as sent.
 */
export const reportAudios = pgTable(
  'report_audios',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    durationMs: integer('duration_ms'),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('report_audios_report_status_idx').on(t.reportStatusId, t.createdAt)],
);

/**
 * What a writer has typed and not yet saved (issue 7 §1 auto-save): one draft per row and writer,
 * replaced on every auto-save and removed by a save. `baseVersion` is the report version the draft
 * started from, so the editor can tell a draft that someone else's save has overtaken.
 */
export const reportDrafts = pgTable(
  'report_drafts',
  {
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentHtml: text('content_html').notNull(),
    baseVersion: integer('base_version'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reportStatusId, t.userId] })],
);

/**
 * One-time codes that open a share link behind the patient's mobile (issue 7 §5): only a keyed hash
 * of the code is kept, like sign-in codes.
 */
export const shareLinkOtps = pgTable(
  'share_link_otps',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    mobile: text('mobile').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('share_link_otps_report_status_idx').on(t.reportStatusId, t.createdAt)],
);

/**
 * Payment requests for a study (issue 5 §1 Viewer payment; apps/server/src/modules/payments/DECISIONS.md):
 * one row per request, kept after it is paid or cancelled (the history). The report row's
 * payment_status / payment_mode follow from these rows and change in the same transaction.
 */
export const studyPayments = pgTable(
  'study_payments',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    status: text('status', { enum: PAYMENT_REQUEST_STATUSES }).notNull().default('PENDING'),
    mode: text('mode', { enum: PAYMENT_MODES }),
    /** In minor units (paise, cents): no float arithmetic on money. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    note: text('note').notNull().default(''),
    /** Which provider made the link ('outbox' by default); null for a desk payment. */
    provider: text('provider'),
    providerReference: text('provider_reference'),
    payUrl: text('pay_url'),
    /** The desk's receipt or transaction id. */
    transactionId: text('transaction_id').notNull().default(''),
    requestedByUserId: integer('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    paidRecordedByUserId: integer('paid_recorded_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    cancelledByUserId: integer('cancelled_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('study_payments_report_status_idx').on(t.reportStatusId, t.id),
    uniqueIndex('study_payments_provider_reference_key')
      .on(t.provider, t.providerReference)
      .where(sql`${t.providerReference} is not null`),
    // At most one open request per study: two staff asking at once cannot both succeed.
    uniqueIndex('study_payments_one_pending_key')
      .on(t.reportStatusId)
      .where(sql`status = 'PENDING'`),
    check('study_payments_status_check', sql`${t.status} in ('PENDING', 'PAID', 'CANCELLED')`),
    check('study_payments_amount_check', sql`${t.amountMinor} > 0`),
  ],
);
export type TStudyPaymentRow = typeof studyPayments.$inferSelect;

/**
 * Webhook calls of payment providers, one row per provider event (modules/payments/DECISIONS.md
 * "Webhook"): the unique (provider, event_id) makes a replayed event change nothing, and the row is
 * written in the transaction that records what the event did (`outcome`), so an event is either
 * fully handled or not at all (the provider retries). Not a group's data: a provider-level log.
 */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The payable kind the event was routed to (payables.ts), when it named one. */
    payableKind: text('payable_kind'),
    /** Our reference the event was about, when it named one. */
    reference: text('reference'),
    /** What handling it did: RECORDED, ALREADY_PAID, UNKNOWN_REFERENCE, AMOUNT_MISMATCH, IGNORED. */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('payment_webhook_events_provider_event_key').on(t.provider, t.eventId)],
);

/**
 * A study's conversation (issue 23 §1; spec-core §1 Chat / notification message): one thread per
 * study row and thread type, made with its first message. Who may read it is the row's access rule
 * (modules/studies) and core `canChat`.
 */
export const chatThreads = pgTable(
  'chat_threads',
  {
    id: serial('id').primaryKey(),
    threadType: text('thread_type').$type<TChatThreadType>().notNull(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_threads_entity_key').on(t.reportStatusId, t.threadType),
    check('chat_threads_type_check', sql`${t.threadType} in ('REPORT_CHAT', 'REPORT_NOTIFICATION')`),
  ],
);

/** One message of a thread: plain text (never rendered as HTML), its sender and whom it is for. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    threadId: integer('thread_id')
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    senderUserId: integer('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's e-mail when sent, kept if the account goes. */
    senderEmail: text('sender_email').notNull(),
    memberType: text('member_type').$type<TChatMessage['memberType']>().notNull(),
    assignedTo: text('assigned_to').$type<TChatAssignment>().notNull(),
    body: text('body').notNull(),
    /** The users the message names with '@' (each in the study's conversation when sent). */
    mentions: integer('mentions')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** The attachment or image of the study it points at, as answered (core ZChatReference). */
    reference: jsonb('reference').$type<TChatReference | null>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_thread_idx').on(t.threadId, t.id),
    // The beat asks for the messages since its previous one: a range of this, not a walk of all.
    index('chat_messages_created_idx').on(t.createdAt),
  ],
);

/** Who has seen which message (a sender's own messages are seen by them when sent). */
export const chatMessageSeen = pgTable(
  'chat_message_seen',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] }), index('chat_message_seen_user_idx').on(t.userId)],
);

/**
 * Each user's last beat (issue 23 §3; spec-core §1 online status, §9): the status their tab said and
 * when. Who is shown ONLINE is core `shownStatus` of this row at read time.
 */
export const userPresence = pgTable(
  'user_presence',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<TPresenceStatus>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('user_presence_status_check', sql`${t.status} in ('ONLINE', 'OFFLINE')`)],
);

/**
 * A critical result (issue 23 §5; modules/critical-results/README.md): a finding the doctor marked
 * critical on a study row, until someone acknowledges it. Every step is also a study event.
 * `escalation_due_at` is fixed when it is raised (the group's time then), so the sweep claims due rows
 * with one indexed UPDATE on both engines.
 */
export const criticalResults = pgTable(
  'critical_results',
  {
    id: serial('id').primaryKey(),
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    category: text('category').$type<TCriticalResultCategory>().notNull(),
    finding: text('finding').notNull(),
    raisedByUserId: integer('raised_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    escalateAfterMinutes: integer('escalate_after_minutes').notNull(),
    escalationDueAt: timestamp('escalation_due_at', { withTimezone: true }).notNull(),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedByUserId: integer('acknowledged_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('critical_results_report_status_idx').on(t.reportStatusId, t.id),
    // The sweep's claim: the few open, not yet escalated rows, by due time.
    index('critical_results_due_idx')
      .on(t.escalationDueAt)
      .where(sql`acknowledged_at is null and escalated_at is null`),
    // The "open for me" list: a group's unacknowledged results.
    index('critical_results_open_idx')
      .on(t.groupId, t.id)
      .where(sql`acknowledged_at is null`),
    check('critical_results_category_check', sql`${t.category} in ('CRITICAL', 'URGENT', 'UNEXPECTED')`),
  ],
);

/**
 * Which notifications a user has seen (issue 23 §2). A notification is a study event the user is an
 * audience of (computed at read time, modules/notifications), so nothing is written per user when an
 * event happens; only reading one writes a row here.
 */
export const notificationSeen = pgTable(
  'notification_seen',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    studyEventId: bigint('study_event_id', { mode: 'number' })
      .notNull()
      .references(() => studyEvents.id, { onDelete: 'cascade' }),
    seenAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.studyEventId] }),
    index('notification_seen_event_idx').on(t.studyEventId),
  ],
);

/** PostgreSQL's tsvector (drizzle has no column type for it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Report search (issue 24 §2; report-search/DECISIONS.md): the signed-off text of a study row — its
 * signed main report and addenda, HTML stripped — with its full-text vector, written by reporting in
 * the sign-off's transaction. One row per study row; the search joins `report_statuses` for the
 * access rule and the status, so a row that is no longer signed off is never found.
 */
export const reportSearchDocuments = pgTable(
  'report_search_documents',
  {
    reportStatusId: integer('report_status_id')
      .notNull()
      .references(() => reportStatuses.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    /** The latest sign-off (main report or addendum) the text is from. */
    signedOffAt: timestamp('signed_off_at', { withTimezone: true }).notNull(),
    content: text('content').notNull(),
    /** English stemming: 'meningiomas' finds 'Meningioma'. Kept by the database from `content`. */
    document: tsvector('document')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, content)`),
    /**
     * Whether the study row is signed off now, in this group: kept by the database (migration 0059,
     * triggers on this table and on `report_statuses`), whatever is written here. The text stays
     * while a study is unlocked or waits for a verifier; this says it is not to be found meanwhile,
     * so a caller who sees the whole group searches this table alone (DECISIONS.md).
     */
    rowSignedOff: boolean('row_signed_off').notNull().default(true),
  },
  (t) => [
    // The partition key is in the key: a row is found by its id first (the deletes, the cascade).
    primaryKey({ columns: [t.reportStatusId, t.groupId] }),
    index('report_search_documents_document_idx').using('gin', t.document),
    index('report_search_documents_group_signed_idx').on(t.groupId, t.signedOffAt, t.reportStatusId),
  ],
);

/**
 * The words of a group's signed-off reports (lower case), for near misses: a query word the group
 * never wrote is replaced by its closest words here (pg_trgm similarity), so 'menigioma' finds
 * 'meningioma'. Per group, so another group's vocabulary never shapes a search. No trigram index:
 * the search reads the group's words with similarity() (report-search.repository.ts says why).
 */
export const reportSearchWords = pgTable(
  'report_search_words',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    word: text('word').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.word] })],
);

// The lab front desk (issue 25, spec-lab §3). Every lab row belongs to one lab: the center of the
// lab user who made it, or the group for a lab user without a center (the same owner as
// lab_prefixes, see modules/lab-settings/lab-owner.ts). Money columns are integer paise.

const labOwnerColumns = () => ({
  groupId: integer('group_id')
    .notNull()
    .references(() => groups.id),
  labScope: text('lab_scope', { enum: LAB_PREFIX_SCOPES }).notNull(),
  labOwnerId: integer('lab_owner_id').notNull(),
});
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A registered patient (spec-lab §3 Patient); the UHID comes from the lab's prefix and sequence. */
export const labPatients = pgTable(
  'lab_patients',
  {
    id: serial('id').primaryKey(),
    ...labOwnerColumns(),
    uhidNumber: text('uhid_number').notNull(),
    name: text('name').notNull(),
    mobileNumber: text('mobile_number'),
    email: text('email'),
    address: text('address'),
    gender: text('gender', { enum: PATIENT_GENDERS }).notNull(),
    designation: text('designation', { enum: PATIENT_DESIGNATIONS }).notNull(),
    weight: numeric('weight', { precision: 6, scale: 2, mode: 'number' }),
    dateBirth: date('date_birth', { mode: 'string' }),
    ageString: text('age_string').notNull().default(''),
    ageYears: integer('age_years').notNull().default(0),
    ageMonths: integer('age_months').notNull().default(0),
    ageDays: integer('age_days').notNull().default(0),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Optimistic concurrency: an update names the version it read. */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('lab_patients_lab_uhid_key').on(t.labScope, t.labOwnerId, t.uhidNumber),
    index('lab_patients_lab_mobile_idx').on(t.labScope, t.labOwnerId, t.mobileNumber),
    index('lab_patients_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // Search as you type (modules/lab-patients/patient-search.ts): a name or UHID prefix is a range
    // of these, read in order; "C" so that LIKE 'ab%' can use them whatever the database's collation.
    index('lab_patients_lab_name_prefix_idx').on(t.labScope, t.labOwnerId, sql`lower(${t.name}) collate "C"`),
    index('lab_patients_lab_uhid_prefix_idx').on(t.labScope, t.labOwnerId, sql`${t.uhidNumber} collate "C"`),
  ],
);

/** A referring doctor of the lab (spec-lab §3): created active; department fixed once set. */
export const labReferringDoctors = pgTable(
  'lab_referring_doctors',
  {
    id: serial('id').primaryKey(),
    ...labOwnerColumns(),
    name: text('name').notNull(),
    mobileNumber: text('mobile_number'),
    department: text('department'),
    active: boolean('active').notNull().default(true),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('lab_referring_doctors_lab_name_idx').on(t.labScope, t.labOwnerId, t.name)],
);

/** A billable test of the lab's catalogue (spec-lab §3 Lab test); a PACKAGE lists member tests. */
export const labTests = pgTable(
  'lab_tests',
  {
    id: serial('id').primaryKey(),
    ...labOwnerColumns(),
    testCode: text('test_code').notNull(),
    testName: text('test_name').notNull(),
    testType: text('test_type', { enum: LAB_TEST_TYPES }).notNull(),
    labModality: text('lab_modality').notNull(),
    department: text('department').notNull().default(DEFAULT_LAB_DEPARTMENT),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    active: boolean('active').notNull().default(true),
    /** The test's own attribute choices (a JSON object, spec-lab §3). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('lab_tests_lab_code_key').on(t.labScope, t.labOwnerId, sql`lower(${t.testCode})`),
    index('lab_tests_lab_created_idx').on(t.labScope, t.labOwnerId, t.createdAt),
  ],
);

/** The member tests of a PACKAGE test (labTestsIds). */
export const labPackageMembers = pgTable(
  'lab_package_members',
  {
    packageTestId: integer('package_test_id')
      .notNull()
      .references(() => labTests.id, { onDelete: 'cascade' }),
    memberTestId: integer('member_test_id')
      .notNull()
      .references(() => labTests.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageTestId, t.memberTestId] })],
);

/**
 * A bill (spec-lab §3 Bill, §4 states). Totals are derived from its lines and ledger by core's money
 * rules and stored so lists and summaries read them without recomputing.
 */
export const labBills = pgTable(
  'lab_bills',
  {
    id: serial('id').primaryKey(),
    ...labOwnerColumns(),
    invoiceNumber: text('invoice_number').notNull(),
    status: text('status', { enum: BILL_STATUSES }).notNull(),
    billDate: timestamp('bill_date', { withTimezone: true }).notNull(),
    initialBillDate: timestamp('initial_bill_date', { withTimezone: true }).notNull(),
    patientId: integer('patient_id')
      .notNull()
      .references(() => labPatients.id),
    referringDoctorId: integer('referring_doctor_id').references(() => labReferringDoctors.id),
    /** labBillCategories: [{ name, type, discount }] as chosen on the bill. */
    categories: jsonb('categories')
      .$type<{ name: string; type: TBillCategoryType; discount: number }[]>()
      .notNull()
      .default([]),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    /** Hundredths of a percent (12.5% = 1250). */
    discountBasisPoints: integer('discount_basis_points').notNull().default(0),
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull().default(0),
    finalMinor: bigint('final_minor', { mode: 'number' }).notNull(),
    advancePaidMinor: bigint('advance_paid_minor', { mode: 'number' }).notNull().default(0),
    dueMinor: bigint('due_minor', { mode: 'number' }).notNull().default(0),
    paymentMethod: text('payment_method', { enum: LAB_PAYMENT_METHODS }).notNull(),
    remark: text('remark'),
    cancellationRemark: text('cancellation_remark'),
    createdBy: text('created_by').notNull(),
    /**
     * Who recorded the bill's first payment (its first lab_transactions row), null before one: the
     * lab summary sorts by it. Written with that payment; the ledger is append-only, so it never
     * changes after.
     */
    firstPaymentRecordedBy: text('first_payment_recorded_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('lab_bills_lab_invoice_key').on(t.labScope, t.labOwnerId, t.invoiceNumber),
    // A lab's bills by bill date (the billing list, the summary). The columns after id are there
    // for the summary, which reads every bill of its range (totals, a sort by creation time or by
    // person): read from the index alone, without a visit to the table (key columns only because
    // drizzle's index builder has no INCLUDE). lab-documents/DECISIONS.md.
    index('lab_bills_lab_date_idx').on(
      t.labScope,
      t.labOwnerId,
      t.billDate,
      t.id,
      t.status,
      t.createdBy,
      t.createdAt,
      t.firstPaymentRecordedBy,
      t.totalMinor,
      t.discountMinor,
      t.finalMinor,
      t.advancePaidMinor,
      t.dueMinor,
    ),
    index('lab_bills_patient_idx').on(t.patientId),
  ],
);

/**
 * A test line of a bill (spec-lab §3 Bill test line). A billed imaging test is a scheduled procedure:
 * its accession number is what the modality worklist hands the scanner and what links the images back.
 */
export const labBillTests = pgTable(
  'lab_bill_tests',
  {
    id: serial('id').primaryKey(),
    billId: integer('bill_id')
      .notNull()
      .references(() => labBills.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    labTestId: integer('lab_test_id')
      .notNull()
      .references(() => labTests.id),
    testCode: text('test_code').notNull(),
    testName: text('test_name').notNull(),
    labModality: text('lab_modality').notNull(),
    department: text('department').notNull(),
    quantity: integer('quantity').notNull().default(1),
    originalPriceMinor: bigint('original_price_minor', { mode: 'number' }).notNull(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    refundMinor: bigint('refund_minor', { mode: 'number' }).notNull().default(0),
    settlementStatus: text('settlement_status', { enum: SETTLEMENT_STATUSES })
      .notNull()
      .default('FULL_PRICE'),
    /** Film size and contrast chosen (a JSON object, spec-lab §3 "attributes"). */
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    appointmentName: text('appointment_name'),
    startTimeOfAppointment: timestamp('start_time_of_appointment', { withTimezone: true }),
    endTimeOfAppointment: timestamp('end_time_of_appointment', { withTimezone: true }),
    accessionNumber: text('accession_number').notNull(),
    /**
     * The Study Instance UID the modality worklist hands the scanner (2.25.<UUID>), so the images come
     * back under it. Given by the database when the line is inserted (whoever writes it), never changed.
     */
    studyInstanceUid: text('study_instance_uid')
      .notNull()
      .default(sql`radflow_new_dicom_uid()`),
    /** Set when images with the accession number arrive (or a study is created from the bill). */
    studyId: integer('study_id').references(() => studies.id),
    uploadedThroughWorkList: boolean('uploaded_through_work_list').notNull().default(false),
  },
  (t) => [
    index('lab_bill_tests_bill_idx').on(t.billId, t.position),
    uniqueIndex('lab_bill_tests_accession_key').on(t.accessionNumber),
    index('lab_bill_tests_appointment_idx')
      .on(t.appointmentName, t.startTimeOfAppointment)
      .where(sql`${t.startTimeOfAppointment} is not null`),
    // The worklist's day of appointments across appointment names (modules/lab-worklist).
    index('lab_bill_tests_start_idx')
      .on(t.startTimeOfAppointment)
      .where(sql`${t.startTimeOfAppointment} is not null`),
    // The billing list's filters (lab-bills/bill-search.ts): a modality few bills have, or a report
    // status few tests reached, is found from its lines instead of looking at every bill of the
    // lab (a modality no bill had: 6 s at 2,000,000 bills on PostgreSQL without these).
    index('lab_bill_tests_modality_idx').on(t.labModality, t.billId),
    index('lab_bill_tests_study_idx')
      .on(t.studyId)
      .where(sql`${t.studyId} is not null`),
  ],
);

/** The payment ledger of a bill: append-only (spec-lab §3 labTransactions). */
export const labTransactions = pgTable(
  'lab_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    billId: integer('bill_id')
      .notNull()
      .references(() => labBills.id),
    paymentMethod: text('payment_method', { enum: LAB_PAYMENT_METHODS }).notNull(),
    transactionId: text('transaction_id'),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    recordedBy: text('recorded_by').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('lab_transactions_bill_idx').on(t.billId, t.id),
    check('lab_transactions_amount_positive', sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Who did what to a lab row, when (created, updated, cancelled, undo cancel, payment): written in
 * the transaction that makes the change.
 */
export const labAuditEvents = pgTable(
  'lab_audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...labOwnerColumns(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').notNull(),
    actorEmail: text('actor_email').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('lab_audit_events_entity_idx').on(t.entity, t.entityId, t.id)],
);

/**
 * A write the client marked with an idempotency key (a double-clicked Submit or payment): the first
 * answer is kept and given again to a repeat of the same key by the same user. One store for every
 * module (modules/idempotency): lab bills, tele invoice and platform billing payments.
 */
export const idempotentWrites = pgTable(
  'idempotent_writes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    response: jsonb('response').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * LAB_TEST_ATTRIBUTES {data} of one lab (spec-lab §3 test attribute definitions: film sizes and
 * contrast volumes by modality, core lab/test-attributes.ts). Kept beside the lab's tests, one row per
 * lab, versioned so two supervisors saving at once get a conflict instead of a lost edit.
 */
export const labTestAttributeSettings = pgTable(
  'lab_test_attribute_settings',
  {
    id: serial('id').primaryKey(),
    ...labOwnerColumns(),
    data: jsonb('data').$type<unknown[]>().notNull().default([]),
    updatedBy: text('updated_by').notNull(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('lab_test_attribute_settings_lab_key').on(t.labScope, t.labOwnerId)],
);

/*
 * The platform's billing of the groups (issue 26 §3; modules/platform-billing/DECISIONS.md). Money
 * in integer paise.
 */

/** A plan a group may be on; the defaults are inserted by migration 0040. */
export const platformPlans = pgTable(
  'platform_plans',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: PLAN_KINDS }).notNull(),
    monthlyFeeMinor: bigint('monthly_fee_minor', { mode: 'number' }).notNull().default(0),
    includedStudies: integer('included_studies').notNull().default(0),
    /** PER_STUDY: the price of a study; SUBSCRIPTION: the price of a study above the included ones. */
    perStudyMinor: bigint('per_study_minor', { mode: 'number' }).notNull().default(0),
    /** > 0: a trial plan, never invoiced, lasting this many days. */
    trialDays: integer('trial_days').notNull().default(0),
    currency: text('currency').notNull().default('INR'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('platform_plans_code_key').on(t.code),
    check(
      'platform_plans_amounts_non_negative',
      sql`${t.monthlyFeeMinor} >= 0 and ${t.perStudyMinor} >= 0 and ${t.includedStudies} >= 0 and ${t.trialDays} >= 0`,
    ),
  ],
);

/** The one current subscription of a group: its plan and how long it is paid for. */
export const groupSubscriptions = pgTable(
  'group_subscriptions',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    planId: integer('plan_id')
      .notNull()
      .references(() => platformPlans.id),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Paid (or trial) through: the banner shows once this has passed. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('group_subscriptions_group_key').on(t.groupId)],
);

/**
 * The platform's usage of a closed month per group (platform-billing/usage-months.ts): studies
 * received (report rows made) and first signed off in the month, in PLATFORM_TIME_ZONE. Counted once,
 * when a dashboard or usage call first asks for the month after it closed; rows only for groups
 * with any. The dashboards then read 12 months of a platform with a million studies in a few rows.
 */
export const platformUsageMonths = pgTable(
  'platform_usage_months',
  {
    /** 'YYYY-MM' of PLATFORM_TIME_ZONE. */
    period: text('period').notNull(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    received: integer('received').notNull(),
    signedOff: integer('signed_off').notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.groupId] })],
);

/** The closed months whose usage is in platform_usage_months (a month with no study has no rows). */
export const platformUsagePeriods = pgTable('platform_usage_periods', {
  period: text('period').primaryKey(),
  countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The platform's gapless invoice (and credit note) numbers: one counter row, locked while issuing. */
export const platformCounters = pgTable('platform_counters', {
  name: text('name').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull().default(0),
});

/**
 * An invoice of the platform to a group for a month, or a credit note correcting one. Issued rows
 * never change their amounts; only `paid_minor` and `status` follow the payments and credit notes.
 */
export const platformInvoices = pgTable(
  'platform_invoices',
  {
    id: serial('id').primaryKey(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    number: text('number').notNull(),
    kind: text('kind', { enum: PLATFORM_INVOICE_KINDS }).notNull().default('INVOICE'),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    /** 'YYYY-MM' of PLATFORM_TIME_ZONE. */
    period: text('period').notNull(),
    planId: integer('plan_id')
      .notNull()
      .references(() => platformPlans.id),
    planName: text('plan_name').notNull(),
    correctsInvoiceId: integer('corrects_invoice_id'),
    reason: text('reason'),
    studiesCounted: integer('studies_counted').notNull(),
    studiesCharged: integer('studies_charged').notNull(),
    /** The plan's terms when issued (a later price change never rewrites an issued invoice). */
    includedStudies: integer('included_studies').notNull(),
    perStudyMinor: bigint('per_study_minor', { mode: 'number' }).notNull(),
    feeMinor: bigint('fee_minor', { mode: 'number' }).notNull(),
    usageMinor: bigint('usage_minor', { mode: 'number' }).notNull(),
    subtotalMinor: bigint('subtotal_minor', { mode: 'number' }).notNull(),
    gstBasisPoints: integer('gst_basis_points').notNull(),
    gstMinor: bigint('gst_minor', { mode: 'number' }).notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    paidMinor: bigint('paid_minor', { mode: 'number' }).notNull().default(0),
    status: text('status', { enum: PLATFORM_INVOICE_STATUSES }).notNull().default('ISSUED'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    issuedBy: text('issued_by').notNull(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('platform_invoices_number_key').on(t.number),
    uniqueIndex('platform_invoices_sequence_key').on(t.sequence),
    // One live invoice per group and month: a re-run of the month's invoicing inserts nothing new;
    // once a credit note cancels it, the next run issues the corrected one.
    uniqueIndex('platform_invoices_group_period_key')
      .on(t.groupId, t.period)
      .where(sql`${t.kind} = 'INVOICE' and ${t.status} <> 'CREDITED'`),
    uniqueIndex('platform_invoices_one_credit_note_key')
      .on(t.correctsInvoiceId)
      .where(sql`${t.correctsInvoiceId} is not null`),
    index('platform_invoices_period_idx').on(t.period, t.groupId),
    index('platform_invoices_open_idx')
      .on(t.dueDate)
      .where(sql`${t.status} = 'ISSUED'`),
  ],
);

/** A payment a group made to the platform; the provider's reference is unique per provider. */
export const platformPayments = pgTable(
  'platform_payments',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    invoiceId: integer('invoice_id').references(() => platformInvoices.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    mode: text('mode', { enum: PLATFORM_PAYMENT_MODES }).notNull(),
    reference: text('reference').notNull(),
    provider: text('provider').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    recordedBy: text('recorded_by').notNull(),
  },
  (t) => [
    uniqueIndex('platform_payments_provider_reference_key').on(t.provider, t.reference),
    index('platform_payments_group_idx').on(t.groupId, t.id),
    index('platform_payments_received_idx').on(t.receivedAt),
    check('platform_payments_amount_positive', sql`${t.amountMinor} > 0`),
  ],
);

/** Who changed what in the platform's billing, written in the transaction of the change. */
export const platformBillingAudit = pgTable(
  'platform_billing_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id'),
    entity: text('entity').notNull(),
    entityId: integer('entity_id'),
    action: text('action').notNull(),
    actorEmail: text('actor_email').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('platform_billing_audit_group_idx').on(t.groupId, t.id)],
);

/*
 * The business ledger (issue 26 §1-§2; modules/tele-billing/DECISIONS.md): prices, documents
 * (tele invoices, credit notes, payout statements), their lines and payments, in one set of tables
 * shared by the CENTER side (what a center pays the group) and the DOCTOR side (what the group pays a
 * radiologist). Amounts are integer minor units (paise).
 */

/**
 * A price (CENTER side: what a center pays per read) or a rate (DOCTOR side: what a doctor is paid).
 * Never updated: a change inserts a row with a later effective_from, so a past invoice's price stays
 * what it was. The price in force for a study is core `priceInForce` over these rows.
 */
export const telePrices = pgTable(
  'tele_prices',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    side: text('side', { enum: PRICE_SIDES }).notNull(),
    /** CENTER side: the center's own price; null = the group's default list. Null on the DOCTOR side. */
    centerId: integer('center_id').references(() => centers.id),
    /** DOCTOR side: the doctor's own rate; null = the default doctor rate. Null on the CENTER side. */
    doctorUserId: integer('doctor_user_id').references(() => users.id),
    modality: text('modality').notNull(),
    /** A study type name (report_statuses.study_parts); '' = the modality's base price. */
    studyPart: text('study_part').notNull().default(''),
    charge: text('charge', { enum: PRICE_CHARGES }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('INR'),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('tele_prices_key')
      .on(t.groupId, t.side, t.centerId, t.doctorUserId, t.modality, t.studyPart, t.charge, t.effectiveFrom)
      .nullsNotDistinct(),
    check('tele_prices_side_check', sql`${t.side} in ('CENTER', 'DOCTOR')`),
    check('tele_prices_charge_check', sql`${t.charge} in ('READ', 'ADDENDUM', 'URGENT')`),
    check('tele_prices_amount_check', sql`${t.amountMinor} >= 0`),
    check(
      'tele_prices_owner_check',
      sql`(${t.side} = 'CENTER' and ${t.doctorUserId} is null) or (${t.side} = 'DOCTOR' and ${t.centerId} is null)`,
    ),
  ],
);
export type TTelePriceRow = typeof telePrices.$inferSelect;

/**
 * The gapless numbers of a group's ledger documents, one row per (group, kind): taken with
 * UPDATE … RETURNING inside the issuing transaction (the lab's bill-numbers pattern).
 */
export const billingSequences = pgTable(
  'billing_sequences',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    /** The last number given (0 before the first document). */
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.kind] })],
);

/**
 * An issued ledger document: a tele invoice (group → center), a credit note (against an invoice) or a
 * payout statement (group → doctor). Never edited after issue: only paid_minor, credited_minor, status
 * and version move; a correction is a credit note.
 */
export const billingDocuments = pgTable(
  'billing_documents',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    /** TI-2026-0001, CN-2026-0001, PO-2026-0001: the prefix, the issue year and the sequence. */
    number: text('number').notNull(),
    /** Gapless per (group, kind): billing_sequences. */
    sequence: integer('sequence').notNull(),
    centerId: integer('center_id').references(() => centers.id),
    doctorUserId: integer('doctor_user_id').references(() => users.id),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    status: text('status', { enum: BILLING_DOCUMENT_STATUSES }).notNull().default('ISSUED'),
    subtotalMinor: bigint('subtotal_minor', { mode: 'number' }).notNull(),
    adjustmentMinor: bigint('adjustment_minor', { mode: 'number' }).notNull().default(0),
    /** The GST percentage of the billing details at issue, in hundredths of a percent (18% = 1800). */
    taxBasisPoints: integer('tax_basis_points').notNull().default(0),
    taxMinor: bigint('tax_minor', { mode: 'number' }).notNull().default(0),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    paidMinor: bigint('paid_minor', { mode: 'number' }).notNull().default(0),
    /** The sum of the credit notes' totals against this invoice (positive). */
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('INR'),
    /** A credit note's invoice. */
    creditedDocumentId: integer('credited_document_id'),
    dueDate: date('due_date', { mode: 'string' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    issuedByUserId: integer('issued_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The group's billing details at issue (what the PDF prints), so a later edit changes no past PDF. */
    billingDetails: jsonb('billing_details').$type<Record<string, unknown>>().notNull().default({}),
    note: text('note').notNull().default(''),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('billing_documents_number_key').on(t.groupId, t.kind, t.sequence),
    // A re-run of a month's invoicing finds what it made: one invoice per center and period, one
    // payout statement per doctor and period.
    uniqueIndex('billing_documents_one_invoice_key')
      .on(t.groupId, t.centerId, t.periodStart, t.periodEnd)
      .where(sql`kind = 'TELE_INVOICE'`),
    uniqueIndex('billing_documents_one_statement_key')
      .on(t.groupId, t.doctorUserId, t.periodStart, t.periodEnd)
      .where(sql`kind = 'PAYOUT_STATEMENT'`),
    index('billing_documents_group_kind_period_idx').on(t.groupId, t.kind, t.periodStart, t.id),
    index('billing_documents_center_idx').on(t.groupId, t.centerId, t.id),
    index('billing_documents_doctor_idx').on(t.groupId, t.doctorUserId, t.id),
    index('billing_documents_credited_idx')
      .on(t.creditedDocumentId)
      .where(sql`${t.creditedDocumentId} is not null`),
    // Dunning: the open invoices by due date.
    index('billing_documents_open_due_idx')
      .on(t.groupId, t.dueDate)
      .where(sql`kind = 'TELE_INVOICE' and status in ('ISSUED', 'PARTIALLY_PAID')`),
    check(
      'billing_documents_kind_check',
      sql`${t.kind} in ('TELE_INVOICE', 'CREDIT_NOTE', 'PAYOUT_STATEMENT')`,
    ),
    check(
      'billing_documents_status_check',
      sql`${t.status} in ('ISSUED', 'PARTIALLY_PAID', 'PAID', 'CANCELLED_BY_CREDIT')`,
    ),
    check('billing_documents_paid_check', sql`${t.paidMinor} >= 0`),
    check('billing_documents_period_check', sql`${t.periodStart} <= ${t.periodEnd}`),
  ],
);
export type TBillingDocumentRow = typeof billingDocuments.$inferSelect;

/**
 * A line of a ledger document: one charge of one study row (a read per study part, an addendum, an
 * urgent surcharge), an adjustment (no study) or a credit note's line (negative, no study; it names the
 * invoice line it corrects, if one). A study row's charge is billed once per side.
 */
export const billingLines = pgTable(
  'billing_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /*
     * The document is checked once per statement, not per row: migration 0045 adds statement-level
     * triggers (billing_lines_document_check: every inserted/updated line's document exists;
     * billing_documents_keep_lines: a document with lines is not deleted nor renumbered). A foreign
     * key's per-row check was 2.5–3.3 s of a 276,667-line INSERT (tele-billing DECISIONS.md
     * "Invoicing in SQL").
     */
    documentId: integer('document_id').notNull(),
    /*
     * group_id, report_status_id and price_id carry no foreign key on purpose: a month's invoicing
     * inserts a million lines in one INSERT … SELECT from those very rows, and the per-row key checks
     * were 70% of its time (tele-billing DECISIONS.md "Invoicing in SQL"). Lines are never deleted,
     * nor are study rows, groups or prices.
     */
    groupId: integer('group_id').notNull(),
    reportStatusId: integer('report_status_id'),
    /**
     * The addendum's report (ADDENDUM lines; DOCTOR side reads may name their report too). No foreign
     * key: a rework deletes every report of the row, and an issued line is history that must outlive
     * it (with a key the rework of a billed row failed; tele-payouts/payout-rework.int.test.ts).
     */
    reportId: integer('report_id'),
    side: text('side', { enum: PRICE_SIDES }).notNull(),
    charge: text('charge', { enum: LINE_CHARGES }).notNull(),
    modality: text('modality').notNull().default(''),
    studyPart: text('study_part').notNull().default(''),
    description: text('description').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    unitMinor: bigint('unit_minor', { mode: 'number' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    priceId: integer('price_id'),
    /** A credit note's line: the invoice line it corrects (null for a credit of an amount). */
    creditedLineId: bigint('credited_line_id', { mode: 'number' }),
  },
  (t) => [
    index('billing_lines_document_idx').on(t.documentId, t.id),
    // Billed once per side: a study row's charge for a part (and an addendum's report) has one line.
    uniqueIndex('billing_lines_once_key')
      .on(t.side, t.reportStatusId, t.charge, t.studyPart, sql`coalesce(report_id, 0)`)
      .where(sql`${t.reportStatusId} is not null`),
    // No (group_id, report_status_id) index: every lookup by study row names its side, and
    // billing_lines_once_key (side, report_status_id, …) serves it; one index less per inserted line.
    check(
      'billing_lines_charge_check',
      sql`${t.charge} in ('READ', 'ADDENDUM', 'URGENT', 'ADJUSTMENT', 'CREDIT')`,
    ),
  ],
);
export type TBillingLineRow = typeof billingLines.$inferSelect;

/** A payment received for (or paid out on) a ledger document; append-only. */
export const billingPayments = pgTable(
  'billing_payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => billingDocuments.id),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    mode: text('mode', { enum: BILLING_PAYMENT_MODES }).notNull(),
    reference: text('reference').notNull().default(''),
    /** A payment provider's name when it reported the payment (its reference is then unique). */
    provider: text('provider'),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    recordedByUserId: integer('recorded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('billing_payments_document_idx').on(t.documentId, t.id),
    uniqueIndex('billing_payments_provider_reference_key')
      .on(t.provider, t.reference)
      .where(sql`${t.provider} is not null`),
    check('billing_payments_amount_check', sql`${t.amountMinor} > 0`),
    check(
      'billing_payments_mode_check',
      sql`${t.mode} in ('CASH', 'UPI', 'CARD', 'BANK_TRANSFER', 'ONLINE')`,
    ),
  ],
);

/**
 * A provider's pay link for an invoice (modules/invoice-payments/DECISIONS.md): a center paying its
 * tele-radiology invoice (`billing_document_id`) or a group its platform invoice
 * (`platform_invoice_id`), exactly one of the two by `payable_kind`. The provider's paid notification
 * (or the payer's signed return) finds the link by provider + our reference and records the payment
 * through the invoice's own recorder, once (`paid_at`).
 */
export const invoicePayLinks = pgTable(
  'invoice_pay_links',
  {
    id: serial('id').primaryKey(),
    payableKind: text('payable_kind', { enum: ['TELE_INVOICE', 'PLATFORM_INVOICE'] }).notNull(),
    billingDocumentId: integer('billing_document_id').references(() => billingDocuments.id),
    platformInvoiceId: integer('platform_invoice_id').references(() => platformInvoices.id),
    /** The group that owes (the tele invoice's issuer group; the platform invoice's customer group). */
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    /** The invoice's outstanding due when the link was made: what the provider asks the payer. */
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    payUrl: text('pay_url'),
    requestedByUserId: integer('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** Set once, in the transaction that records the payment. */
    paidAt: timestamp('paid_at', { withTimezone: true }),
    providerPaymentId: text('provider_payment_id'),
  },
  (t) => [
    uniqueIndex('invoice_pay_links_provider_reference_key').on(t.provider, t.reference),
    index('invoice_pay_links_document_idx').on(t.billingDocumentId),
    index('invoice_pay_links_platform_invoice_idx').on(t.platformInvoiceId),
    check('invoice_pay_links_amount_positive', sql`${t.amountMinor} > 0`),
    check(
      'invoice_pay_links_one_payable',
      sql`(${t.payableKind} = 'TELE_INVOICE' and ${t.billingDocumentId} is not null and ${t.platformInvoiceId} is null) or (${t.payableKind} = 'PLATFORM_INVOICE' and ${t.platformInvoiceId} is not null and ${t.billingDocumentId} is null)`,
    ),
  ],
);

/** Who did what in the ledger (a price added, a document issued, a payment recorded): one row per write. */
export const billingAuditEvents = pgTable(
  'billing_audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('billing_audit_events_entity_idx').on(t.groupId, t.entity, t.entityId, t.id)],
);

/**
 * The support chat (issue 29 §6): each user's own thread with the platform's support, one row a
 * message. The thread is the asking user (`userId`); `fromSupport` marks the answers, written by
 * the operator group's admins. Shown only while the user's group has enableSupportChatBot on.
 */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id),
    senderUserId: integer('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's e-mail when sent, kept if the account goes. */
    senderEmail: text('sender_email').notNull(),
    fromSupport: boolean('from_support').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_user_idx').on(t.userId, t.id),
    index('support_messages_created_idx').on(t.createdAt),
  ],
);

/**
 * An offline report the center router took up (issue 27 §4, apps/router/HYBRID.md): its write id is
 * the router's, so a repeat after a cut is answered with the first save's version and never saved
 * twice. Written in the save's transaction.
 */
export const offlineReportWrites = pgTable('offline_report_writes', {
  writeId: uuid('write_id').primaryKey(),
  reportStatusId: integer('report_status_id')
    .notNull()
    .references(() => reportStatuses.id, { onDelete: 'cascade' }),
  authorUserId: integer('author_user_id')
    .notNull()
    .references(() => users.id),
  savedVersion: integer('saved_version').notNull(),
  writtenAt: timestamp('written_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * A hybrid doctor's grant to a router (issue 27 §4, apps/router/HYBRID.md): minted by their own
 * online sign-in there, kept by the router, sent with each of their offline saves. Only its SHA-256
 * is stored. Without a live grant of the named author, the center's token cannot write as them.
 */
export const offlineReportGrants = pgTable(
  'offline_report_grants',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('offline_report_grants_user_idx').on(t.userId)],
);
