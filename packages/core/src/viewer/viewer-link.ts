import type { TRole } from '../identity/roles.js';

/**
 * The viewer's address and its query (spec-core §2 route `/viewer/:studyInstanceUids/:id`, query
 * `v` (api version), optional `p=1` and `d=1`; spec-lab §2 `?v={apiVersion}`): which of the two
 * viewers opens, whether the page is a popup, and the study's api version. The link builders
 * (worklist, notifications, chat, patients' page) and the viewer page read the same rules; the
 * decision table is in apps/web/src/features/viewer/VIEWER.md "Which viewer".
 */

/** The two viewers: Cornerstone's diagnostic one and the light one of server-rendered frames. */
export type TViewerKind = 'diagnostic' | 'light';

export interface TViewerQuery {
  /** `d=1`: the diagnostic viewer; anything else the light one (spec-core §2 "d selects one viewer"). */
  kind: TViewerKind;
  /** `p=1`: the page was opened as a popup window (the popupViewer preference); closing closes it. */
  popup: boolean;
  /** `v`: the study's api version as the link was built; null when absent or not a version. */
  apiVersion: number | null;
}

const VERSION = /^[1-9]\d{0,5}$/;

/** The viewer's query read from `location.search` or its parsed parameters. */
export function viewerQueryOf(search: string | URLSearchParams): TViewerQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const v = params.get('v') ?? '';
  return {
    kind: params.get('d') === '1' ? 'diagnostic' : 'light',
    popup: params.get('p') === '1',
    apiVersion: VERSION.test(v) ? Number(v) : null,
  };
}

/**
 * Roles the app's own links open in the light viewer: people who look at a finished study, often on
 * a phone or a slow link — referring doctors, patients (customer), shared-link accounts (viewer),
 * a center's customer. Every other role that opens studies reads or checks images and gets `d=1`.
 * Someone holding one role of each kind gets the diagnostic viewer.
 */
export const LIGHT_VIEWER_ROLES: readonly TRole[] = [
  'ROLE_REFERRING_DOCTOR',
  'ROLE_CUSTOMER',
  'ROLE_VIEWER',
  'ROLE_CENTER_CUSTOMER',
];

/** The viewer the app's links open for a user of these roles. */
export function defaultViewerKind(roles: readonly TRole[]): TViewerKind {
  return roles.some((r) => !LIGHT_VIEWER_ROLES.includes(r)) ? 'diagnostic' : 'light';
}

export interface TViewerLinkOptions {
  kind: TViewerKind;
  popup?: boolean;
  /** Further query (e.g. the chat's series/sop/frame), appended after v, p and d. */
  extra?: Record<string, string>;
}

/** `/viewer/{uid}/{id}?v={apiVersion}[&p=1][&d=1]` (spec-lab §2 viewer link). */
export function viewerLink(
  study: { studyInstanceUid: string; id: number; apiVersion: number },
  { kind, popup = false, extra = {} }: TViewerLinkOptions,
): string {
  const query = new URLSearchParams({ v: String(study.apiVersion) });
  if (popup) query.set('p', '1');
  if (kind === 'diagnostic') query.set('d', '1');
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return `/viewer/${encodeURIComponent(study.studyInstanceUid)}/${study.id}?${query.toString()}`;
}

/**
 * The same page's query with another viewer chosen (the light viewer's "Diagnostic viewer" button
 * and back): v, p and every other parameter kept.
 */
export function withViewerKind(search: string, kind: TViewerKind): string {
  const params = new URLSearchParams(search);
  if (kind === 'diagnostic') params.set('d', '1');
  else params.delete('d');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * `v` honoured: the study's api version decides what the viewer reads (the upload-pending rule:
 * above 1 the study came through the upload API), and the server's row is the truth. A link whose
 * `v` is missing, not a version or out of date (the study was moved since the link was built) gets
 * its address corrected in place, so a link copied from the page is right. Null: nothing to correct.
 */
export function correctedViewerSearch(search: string, studyApiVersion: number): string | null {
  const params = new URLSearchParams(search);
  if (viewerQueryOf(params).apiVersion === studyApiVersion && params.get('v') === String(studyApiVersion))
    return null;
  params.set('v', String(studyApiVersion));
  return `?${params.toString()}`;
}

/** Closing the viewer: a popup (`p=1`, or a window something opened) closes; a page goes home. */
export function viewerCloseAction(popup: boolean, hasOpener: boolean): 'close-window' | 'go-home' {
  return popup || hasOpener ? 'close-window' : 'go-home';
}
