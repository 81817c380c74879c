import { z } from 'zod';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import { EMAIL_PATTERN, MOBILE_PATTERN } from '../common/validation.js';
import { ZStudyTag } from '../worklist/schemas.js';
import { type TActorCenter, actingRoles } from '../worklist/study-row.js';

/*
 * Study files and sharing (issue 4 §2; spec-core §3 attachments, tags, sharing fields; §5 allowed
 * attachment types, tag confirms, mobile pattern; §6 who adds and deletes attachments; §7 Study
 * actions). The request/response schemas of every call, plus the pure rules the browser and the
 * server both apply (allowed file types, who may add or delete an attachment, tag text).
 */

// ---------------------------------------------------------------------------------------------------
// Attachments
// ---------------------------------------------------------------------------------------------------

/** The three attachment lists of a study (spec-core §3 historyAttachment / filmAttachment / reportAttachment). */
export const STUDY_ATTACHMENT_KINDS = ['HISTORY', 'FILM', 'REPORT'] as const;
export type TStudyAttachmentKind = (typeof STUDY_ATTACHMENT_KINDS)[number];

/** Upload size cap per file. The spec names none; 50 MB holds a scanned report or a film photo. */
export const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

/**
 * spec-core §5 "Attachments accept xlsx, xls, images, doc, docx, ppt, pptx, txt and pdf": each
 * accepted extension and the content type we store and serve it with. "Images" are the raster
 * formats browsers show; SVG is left out on purpose (it is a document that can run script).
 */
export const ATTACHMENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
} as const;
export type TAttachmentExtension = keyof typeof ATTACHMENT_TYPES;

/** The `accept` attribute of the attachment file input (spec-core §5), built from the same list. */
export const ATTACHMENT_ACCEPT = Object.keys(ATTACHMENT_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/** The lower-cased extension of a file name, or '' without one. */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** spec-core §5: the file's extension is one the attachments accept. */
export function isAllowedAttachmentName(fileName: string): boolean {
  return Object.hasOwn(ATTACHMENT_TYPES, fileExtension(fileName));
}

/** The content type an accepted file is stored and served with, or null when not accepted. */
export function attachmentContentType(fileName: string): string | null {
  const ext = fileExtension(fileName);
  return Object.hasOwn(ATTACHMENT_TYPES, ext) ? ATTACHMENT_TYPES[ext as TAttachmentExtension] : null;
}

/** How many leading bytes `sniffAttachment` needs. */
export const ATTACHMENT_SNIFF_BYTES = 16;

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Cheap content sniffing: do the first bytes of the file look like what its extension says? Office
 * Open XML files are zip archives, the old Office formats OLE2 compound files; text must hold no NUL
 * byte in its head. A file that fails is refused, so a renamed executable is not served as a PDF.
 */
export function sniffAttachment(fileName: string, head: Uint8Array): boolean {
  const ext = fileExtension(fileName);
  switch (ext) {
    case 'xlsx':
    case 'docx':
    case 'pptx':
      return startsWith(head, ZIP);
    case 'xls':
    case 'doc':
    case 'ppt':
      return startsWith(head, OLE2);
    case 'pdf':
      return startsWith(head, ascii('%PDF-'));
    case 'jpg':
    case 'jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'));
    case 'bmp':
      return startsWith(head, ascii('BM'));
    case 'webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
    case 'tif':
    case 'tiff':
      return startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]);
    case 'txt':
      return !head.includes(0);
    default:
      return false;
  }
}

/**
 * Why a file may not be attached, or null when it may (spec-core §5; the browser checks before
 * uploading, the server again with the bytes).
 */
export function attachmentFileProblem(file: { name: string; size: number }): string | null {
  if (!isAllowedAttachmentName(file.name)) {
    return `File type not allowed: ${file.name}. Allowed: ${Object.keys(ATTACHMENT_TYPES).join(', ')}`;
  }
  if (file.size > ATTACHMENT_MAX_BYTES) return attachmentTooLargeMessage();
  if (file.size === 0) return `File is empty: ${file.name}`;
  return null;
}

export function attachmentTooLargeMessage(): string {
  return `File is larger than the limit of ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB`;
}

/**
 * The facts the attachment and tag rules read. Center roles act on their own center's studies only,
 * ROLE_CENTER_BACKUP on none (core worklist/study-row.ts actingRoles).
 */
export interface TAttachmentRuleInput extends TActorCenter {
  roles: readonly TRole[];
  row: { status: string; centerId: number | null };
}

/** Roles that write reports, and so add and remove the report's own attachments. */
const REPORT_AUTHOR_ROLES: readonly TRole[] = ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_ADMIN'];

/**
 * Who may upload an attachment of a kind (spec-core §6 "Center: add/delete history and film
 * attachments"). Decisions where the spec is silent: admins and tele-radiology users manage history
 * and film attachments too (they fill in the same details form); report attachments belong to the
 * report, so its authors (doctors, typists, admins) add them. Nothing is added to a DELETED study.
 */
export function canUploadStudyAttachment(input: TAttachmentRuleInput, kind: TStudyAttachmentKind): boolean {
  if (input.row.status === 'DELETED') return false;
  const roles = actingRoles(input);
  if (kind === 'REPORT') return hasRole(roles, ...REPORT_AUTHOR_ROLES);
  return isCenterUser(roles) || hasRole(roles, 'ROLE_ADMIN', 'ROLE_TELE_RADIOLOGY');
}

/**
 * Who may delete an attachment: whoever may upload that kind, plus center users for any kind
 * (spec-core §6 "Center: … delete attachments"). Not on a DELETED study.
 */
export function canDeleteStudyAttachment(input: TAttachmentRuleInput, kind: TStudyAttachmentKind): boolean {
  if (input.row.status === 'DELETED') return false;
  return canUploadStudyAttachment(input, kind) || isCenterUser(actingRoles(input));
}

/** One attachment as lists answer it (spec-core §3: path, fileName, createdAt). */
export const ZStudyAttachment = z
  .object({
    id: z.number().int(),
    reportStatusId: z.number().int(),
    kind: z.enum(STUDY_ATTACHMENT_KINDS),
    /** Opaque id the download and delete calls take. */
    path: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    /** E-mail of the uploader, or null when that user is gone. */
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'StudyAttachment' });
export type TStudyAttachment = z.infer<typeof ZStudyAttachment>;

/** The three lists of GET /history/{id} (spec-core §3). */
export const ZStudyAttachmentLists = z.object({
  historyAttachment: z.array(ZStudyAttachment),
  filmAttachment: z.array(ZStudyAttachment),
  reportAttachment: z.array(ZStudyAttachment),
});
export type TStudyAttachmentLists = z.infer<typeof ZStudyAttachmentLists>;

/** Path parameters: POST /history/upload/{id}, /film/upload/{id}, /report-attachment/upload/{id}. */
export const ZAttachmentUploadParams = z.object({ id: z.coerce.number().int().positive() });
/** Path parameters of the delete calls: /{kind}/delete/{id}/{path}. */
export const ZAttachmentPathParams = z.object({
  id: z.coerce.number().int().positive(),
  path: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'path'),
});
/** Path parameters of the download calls: /{kind}/download/{id}/{path}/{fileName?}. */
export const ZAttachmentDownloadParams = ZAttachmentPathParams.extend({
  fileName: z.string().max(255).optional(),
});

/** An upload answers the stored attachment. */
export const ZAttachmentUploadResponse = ZStudyAttachment;

/** GET /attachments/{id} answers ZStudyAttachmentLists (each list oldest first), for the attachment dialogs. */

/** GET /films/get (spec-core §7 "reads data, 50 shown"; §9 film list capped at 50). */
export const FILM_LIST_LIMIT = 50;
export const ZFilmListItem = ZStudyAttachment.extend({
  patientName: z.string(),
  patientId: z.string(),
  studyName: z.string(),
  /** The name GET /films/images/get/{name} takes (the attachment's path). */
  name: z.string(),
});
export const ZFilmListResponse = z.object({ data: z.array(ZFilmListItem) }).meta({ id: 'FilmList' });
export type TFilmListResponse = z.infer<typeof ZFilmListResponse>;
export const ZFilmImageParams = z.object({ name: ZAttachmentPathParams.shape.path });

// ---------------------------------------------------------------------------------------------------
// Tags (spec-core §3 reportTags, §4 Tags, §5 confirms, §7 report-tag calls)
// ---------------------------------------------------------------------------------------------------

export const TAG_MAX_LENGTH = 50;

/** spec-core §5 tag confirms, word for word. */
export const TAG_MESSAGES = {
  confirmDelete: 'Are you sure you want to delete this tag?',
  confirmMakeLocal: 'Are you sure you want to make this tag local?',
  confirmMakeGlobal: 'Are you sure you want to make this tag global?',
} as const;

/** The tag text as stored: trimmed, inner whitespace collapsed. */
export function normalizeTag(tag: string): string {
  return tag.trim().replace(/\s+/g, ' ');
}

const ZTagText = z
  .string()
  .transform(normalizeTag)
  .pipe(z.string().min(1, 'tag must not be empty').max(TAG_MAX_LENGTH));

/** POST /report-tag/add-tags. */
export const ZAddReportTagRequest = z
  .object({
    reportStatusId: z.number().int().positive(),
    tag: ZTagText,
    globalTag: z.boolean().default(false),
  })
  .meta({ id: 'AddReportTagRequest' });
export type TAddReportTagRequest = z.input<typeof ZAddReportTagRequest>;
export const ZAddReportTagResponse = z.object({ id: z.number().int() });

/** DELETE /report-tag/delete (body). */
export const ZDeleteReportTagRequest = z.object({ id: z.number().int().positive() });
export type TDeleteReportTagRequest = z.infer<typeof ZDeleteReportTagRequest>;

/** POST /report-tag/update: toggle local ↔ global. */
export const ZUpdateReportTagRequest = z.object({
  id: z.number().int().positive(),
  globalTag: z.boolean(),
});
export type TUpdateReportTagRequest = z.infer<typeof ZUpdateReportTagRequest>;

/** GET /report-tag/choices: the group's global tags and the caller's local ones, for the tag dialog. */
export const ZTagChoice = z.object({ tag: z.string(), globalTag: z.boolean() });
export const ZTagChoicesResponse = z.object({ tags: z.array(ZTagChoice) }).meta({ id: 'TagChoices' });
export type TTagChoicesResponse = z.infer<typeof ZTagChoicesResponse>;

/** GET /report-tag/list/{id}: the tags of one study (the caller's local ones and every global one). */
export const ZReportTagList = z.object({ data: z.array(ZStudyTag) });

/**
 * Who may tag studies at all (the tag calls and the tag choices). Decision (spec silent): every user
 * who can see the study, except the outsiders a study is only shown to (viewers, customers), whose
 * tags would leak into the group's choices. Whether one study may be tagged is canTagStudyRow.
 */
export function canTagStudy(roles: readonly TRole[]): boolean {
  return roles.some((r) => r !== 'ROLE_VIEWER' && r !== 'ROLE_CUSTOMER');
}

/**
 * May this user tag this study: canTagStudy with the roles they act with on the row (a center role
 * on its own center only, ROLE_CENTER_BACKUP never; core actingRoles), so a share-all account reads
 * the other centers' tags but does not add to them.
 */
export function canTagStudyRow(input: TAttachmentRuleInput): boolean {
  return canTagStudy(actingRoles(input));
}

/**
 * Who may delete a tag or switch it between local and global. Decision (spec silent): its creator,
 * or an admin of the group; a local tag is only ever seen by its creator, so in practice only a
 * global tag can be changed by an admin.
 */
export function canChangeReportTag(input: {
  roles: readonly TRole[];
  userId: number;
  createdByUserId: number | null;
}): boolean {
  return input.createdByUserId === input.userId || hasRole(input.roles, 'ROLE_ADMIN');
}

// ---------------------------------------------------------------------------------------------------
// Referring doctor and message sharing (spec-core §7 report-status/save, send-message, send-email)
// ---------------------------------------------------------------------------------------------------

const ZEmail = z.string().trim().toLowerCase().max(320).regex(EMAIL_PATTERN, 'must be an e-mail address');

/** POST /report-status/save: share the study with a referring doctor of the group. */
export const ZSaveReferringDoctorRequest = z
  .object({
    /** The study's id (the archive's); checked against the report row when given. */
    studyId: z.number().int().positive().nullish(),
    reportStatusId: z.number().int().positive(),
    referringDoctorEmail: ZEmail,
  })
  .meta({ id: 'SaveReferringDoctorRequest' });
export type TSaveReferringDoctorRequest = z.input<typeof ZSaveReferringDoctorRequest>;
export const ZSaveReferringDoctorResponse = z.object({
  reportStatusId: z.number().int(),
  referringDoctorEmail: z.string(),
});

/** spec-core §5: the send-message mobile field uses the mobile pattern (10 digits, 6-9 first). */
export function isValidShareMobile(number: string): boolean {
  return MOBILE_PATTERN.test(number.trim());
}

/** POST /report-status/send-message/{id}. */
export const ZSendMessageRequest = z
  .object({
    number: z.string().trim().regex(MOBILE_PATTERN, 'must be a 10-digit mobile number starting 6-9'),
    referringPhysician: z.string().trim().max(200).nullish(),
  })
  .meta({ id: 'SendMessageRequest' });
export type TSendMessageRequest = z.input<typeof ZSendMessageRequest>;

/** POST /report-status/send-email/{id}. */
export const ZSendEmailRequest = z.object({ email: ZEmail }).meta({ id: 'SendEmailRequest' });
export type TSendEmailRequest = z.input<typeof ZSendEmailRequest>;

export const ZReportStatusIdParams = z.object({ id: z.coerce.number().int().positive() });

/** The answer of both send calls: where the message went and the link it carries. */
export const ZShareResponse = z
  .object({
    shareLink: z.string(),
    /** The channels queued: SMS, WHATSAPP, EMAIL. */
    channels: z.array(z.enum(['SMS', 'WHATSAPP', 'EMAIL'])),
    sharedNumbers: z.array(z.string()),
    sharedEmails: z.array(z.string()),
  })
  .meta({ id: 'ShareResponse' });
export type TShareResponse = z.infer<typeof ZShareResponse>;

/** The share page address a message carries: `{publicUrl}/share?link={token}`. */
export function buildShareUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/share?link=${encodeURIComponent(token)}`;
}
