import { z } from 'zod';
import { REPORT_CONTENT_MAX, REPORT_NAME_MAX } from './schemas.js';
import { REPORTING_MESSAGES as M } from './messages.js';

/*
 * Report drafts (issue 7 §1 "nothing typed is ever lost to a reload or a lost connection"): the
 * editor keeps every change on the device at once and on the server (one draft per row and writer)
 * a moment later. On opening, the newest of the saved report, the server draft and the device copy
 * wins; a draft overtaken by someone else's later save is not chosen silently: the writer is asked.
 */

/** PUT /api/report/draft/{reportStatusId}: the writer's unsaved text. */
export const ZReportDraftRequest = z.object({
  /** The report name as typed (may still be empty: a draft is not a save). */
  name: z.string().trim().max(REPORT_NAME_MAX).default(''),
  content: z.string().max(REPORT_CONTENT_MAX, M.reportTooLong),
  /** The saved version the writer started from (null: none saved yet). */
  baseVersion: z.number().int().min(0).nullable().default(null),
});
export type TReportDraftRequest = z.infer<typeof ZReportDraftRequest>;

/** GET/PUT /api/report/draft/{reportStatusId}: the caller's draft (GET: null when there is none). */
export const ZReportDraft = z
  .object({
    name: z.string(),
    content: z.string(),
    baseVersion: z.number().int().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ReportDraft' });
export type TReportDraft = z.infer<typeof ZReportDraft>;

/** A draft copy, on the device or on the server (same shape). */
export type TDraftCopy = TReportDraft;

/** The last saved version of the report (null when nothing was saved yet). */
export interface TSavedCopy {
  name: string;
  content: string;
  version: number;
  savedAt: string;
  /** E-mail of who saved it. */
  savedBy: string | null;
}

export type TReportOpening =
  | { kind: 'SAVED' }
  | { kind: 'DRAFT'; draft: TDraftCopy; from: 'DEVICE' | 'SERVER' }
  /** Someone else saved after the draft was started: the writer chooses which to keep. */
  | { kind: 'CONFLICT'; draft: TDraftCopy; from: 'DEVICE' | 'SERVER'; saved: TSavedCopy };

const time = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/** The newer of two draft copies (the device wins a tie: it is written first). */
export function newerDraft(
  device: TDraftCopy | null,
  server: TDraftCopy | null,
): { draft: TDraftCopy; from: 'DEVICE' | 'SERVER' } | null {
  if (device && (!server || time(device.updatedAt) >= time(server.updatedAt))) {
    return { draft: device, from: 'DEVICE' };
  }
  return server ? { draft: server, from: 'SERVER' } : null;
}

/**
 * What the editor opens with. No draft, or a draft equal to the saved report → the saved report. A
 * draft started before a later save by someone else → ask (CONFLICT). A draft older than the
 * writer's own later save (another device) → the saved report. Otherwise the newest draft.
 */
export function chooseReportOpening(input: {
  saved: TSavedCopy | null;
  serverDraft: TDraftCopy | null;
  deviceDraft: TDraftCopy | null;
  /** The writer's e-mail. */
  me: string;
}): TReportOpening {
  const newest = newerDraft(input.deviceDraft, input.serverDraft);
  if (!newest) return { kind: 'SAVED' };
  const { saved } = input;
  if (!saved) return { kind: 'DRAFT', ...newest };
  const { draft } = newest;
  if (draft.content === saved.content && draft.name === saved.name) return { kind: 'SAVED' };
  const overtaken = (draft.baseVersion ?? 0) < saved.version;
  const byOther = (saved.savedBy ?? '').toLowerCase() !== input.me.toLowerCase();
  if (overtaken && byOther) return { kind: 'CONFLICT', ...newest, saved };
  if (overtaken && time(saved.savedAt) > time(draft.updatedAt)) return { kind: 'SAVED' };
  return { kind: 'DRAFT', ...newest };
}
