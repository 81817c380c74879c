import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Identity and settings tables of issue 2 (ARCHITECTURE §3). snake_case columns, timestamptz. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A teleradiology company or hospital group. */
export const groups = pgTable('groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
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
    /** Bumped to revoke every API token of the user (they are derived, never stored). */
    tokenVersion: integer('token_version').notNull().default(0),
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

/** One-time sign-in codes; only a keyed hash of the code is kept. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    mobile: text('mobile').notNull(),
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
    createdAt: createdAt(),
  },
  (t) => [
    index('message_outbox_recipient_idx').on(t.recipient, t.createdAt),
    check('message_outbox_channel_check', sql`${t.channel} in ('SMS', 'WHATSAPP', 'EMAIL')`),
  ],
);

export const PREFERENCE_SCOPES = ['GROUP', 'USER'] as const;

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
    check('preferences_scope_check', sql`${t.scope} in ('GROUP', 'USER')`),
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

export type TUserRow = typeof users.$inferSelect;
export type TDeviceRow = typeof devices.$inferSelect;
