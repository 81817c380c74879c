import { z } from 'zod';
import { type TRole, hasRole, isCenterUser } from '../identity/roles.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { type TActorCenter, actingRoles } from '../worklist/study-row.js';

/**
 * Audio notes of a study (spec-core §2 audio recordings dialog, §3 Audio, §7 /report-audio/...,
 * §8 'Audio attached'; issue 7 §3). Rules shared by the server (403 answers) and the dialog (which
 * buttons show). Decisions: apps/server/src/modules/report-audio/DECISIONS.md.
 */

/** spec-core §8 info toast after an upload, word for word. */
export const AUDIO_ATTACHED_MESSAGE = 'Audio attached';

/** Ours: a note of several minutes in Opus is a few MB; 20 MiB leaves room for WAV and MP3. */
export const AUDIO_MAX_BYTES = 20 * 1024 * 1024;
/** Ours: the longest duration a client may claim (4 hours); longer values are refused as input. */
export const AUDIO_MAX_DURATION_MS = 4 * 60 * 60 * 1000;

export const AUDIO_MESSAGES = {
  tooLarge: `Audio is larger than the limit of ${AUDIO_MAX_BYTES / (1024 * 1024)} MB`,
  notAudio: 'Only WebM, Ogg, MP4/M4A, MP3 and WAV audio can be attached',
  empty: 'The recording is empty',
  notAllowed: 'You cannot add audio notes to this study',
  deleteNotAllowed: 'Only the person who recorded this note or a group admin can delete it',
  deletedStudy: 'The study has been deleted',
} as const;

/** The audio types we keep, by what their first bytes say (never by the name or the client's type). */
export const AUDIO_CONTENT_TYPES = [
  'audio/webm',
  'audio/ogg',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
] as const;
export type TAudioContentType = (typeof AUDIO_CONTENT_TYPES)[number];

/** How many leading bytes `sniffAudio` reads. */
export const AUDIO_SNIFF_BYTES = 16;

const ascii = (head: Uint8Array, at: number, text: string) =>
  text.split('').every((c, i) => head[at + i] === c.charCodeAt(0));

/**
 * The audio type of a file by its first bytes, or null: WebM/Matroska (EBML 1A 45 DF A3), Ogg
 * ("OggS"), MP4/M4A ("ftyp" at 4), MP3 ("ID3" tag or an MPEG audio frame sync that is not AAC's
 * ADTS), WAV ("RIFF" … "WAVE").
 */
export function sniffAudio(head: Uint8Array): TAudioContentType | null {
  if (head.length < 4) return null;
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'audio/webm';
  if (ascii(head, 0, 'OggS')) return 'audio/ogg';
  if (head.length >= 8 && ascii(head, 4, 'ftyp')) return 'audio/mp4';
  if (ascii(head, 0, 'ID3')) return 'audio/mpeg';
  const b1 = head[1] ?? 0;
  // MPEG audio frame: 11 sync bits, then the layer must not be 00 (00 is AAC in ADTS, not MP3).
  if (head[0] === 0xff && (b1 & 0xe0) === 0xe0 && ((b1 >> 1) & 0x03) !== 0) return 'audio/mpeg';
  if (head.length >= 12 && ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'audio/wav';
  return null;
}

/** The file extension a download of each type gets. */
export const AUDIO_EXTENSIONS: Record<TAudioContentType, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
};

/** Roles that add audio notes, besides the row's own center users. */
export const AUDIO_WRITER_ROLES: readonly TRole[] = ['ROLE_DOCTOR', 'ROLE_TYPIST', 'ROLE_VERIFIER'];
/** Group admins delete any note of the group. */
export const AUDIO_ADMIN_ROLES: readonly TRole[] = ['ROLE_ADMIN', 'ROLE_GROUP'];

export interface TAudioRuleInput extends TActorCenter {
  roles: readonly TRole[];
  row: { status: TReportStatus; centerId: number | null };
}

/**
 * Who records and attaches a note (issue 7 §3): doctors, typists and verifiers, and center users of
 * the row's own center. Nothing is added to a DELETED study.
 */
export function canAddReportAudio(input: TAudioRuleInput): boolean {
  if (input.row.status === 'DELETED') return false;
  const roles = actingRoles(input);
  return hasRole(roles, ...AUDIO_WRITER_ROLES) || isCenterUser(roles);
}

/**
 * Who deletes a note: the person who recorded it (while they still may add notes to the row), or a
 * group admin (ROLE_ADMIN, ROLE_GROUP). Not on a DELETED study.
 */
export function canDeleteReportAudio(input: TAudioRuleInput & { isUploader: boolean }): boolean {
  if (input.row.status === 'DELETED') return false;
  if (hasRole(input.roles, ...AUDIO_ADMIN_ROLES)) return true;
  return input.isUploader && canAddReportAudio(input);
}

export const ZReportAudioParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
});
export const ZReportAudioItemParams = ZReportAudioParams.extend({
  audioId: z.coerce.number().int().positive().max(2_147_483_647),
});

/** The optional `durationMs` form field of POST /report-audio/save-audio/{id}. */
export const ZAudioDurationField = z.coerce.number().int().min(0).max(AUDIO_MAX_DURATION_MS);

/** One note as GET /report-audio/fetch-audio/{id} lists it (spec-core §3 Audio: audioId, audioUrl). */
export const ZReportAudio = z
  .object({
    audioId: z.number().int(),
    /** GET /api/report-audio/file/{id}/{audioId}: the bytes, for an <audio> element. */
    audioUrl: z.string(),
    contentType: z.string(),
    byteSize: z.number().int(),
    durationMs: z.number().int().nullable(),
    /** The uploader's e-mail, or null when that user is gone. */
    createdBy: z.string().nullable(),
    createdByName: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ReportAudio' });
export type TReportAudio = z.infer<typeof ZReportAudio>;

export const ZReportAudioList = z.array(ZReportAudio).meta({ id: 'ReportAudioList' });

/** GET /api/report-audio/file/{id}/{audioId}. */
export const reportAudioFileUrl = (reportStatusId: number, audioId: number) =>
  `/api/report-audio/file/${reportStatusId}/${audioId}`;
