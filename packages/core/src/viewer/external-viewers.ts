import type { TGroupFlags } from '../settings/preferences.js';
import type { TRole } from '../identity/roles.js';
import { WORKLIST_MESSAGES } from '../worklist/messages.js';
import { canDownloadZip } from '../jobs/zip-rules.js';

/**
 * Opening a study in a desktop viewer (issue 5 §4, spec-core §4 Zip download): the study's zip is
 * saved into the download folder the user named in the study table setting (openInRadiantPath — the
 * browser's download folder on that computer), then the viewer is started through its URL scheme.
 * Weasis has its own launch (weasis.ts): it reads our DICOMweb, no zip.
 */
export const EXTERNAL_VIEWERS = ['RADIANT', 'HOROS'] as const;
export type TExternalViewer = (typeof EXTERNAL_VIEWERS)[number];

export const EXTERNAL_VIEWER_LABELS: Record<TExternalViewer, string> = {
  RADIANT: 'Open in RadiAnt',
  HOROS: 'Open in Horos',
};

/** spec-core §4: the viewer starts at least this long after the download job. */
export const EXTERNAL_VIEWER_DELAY_MS = 2_000;

/**
 * Which desktop viewers the user is offered: both need the zip download (core canDownloadZip);
 * Horos only with the group's openInHoros. RadiAnt has no switch of its own in the spec.
 */
export function externalViewersOf(
  roles: readonly TRole[],
  flags: Parameters<typeof canDownloadZip>[1] & Pick<TGroupFlags, 'openInHoros'>,
): TExternalViewer[] {
  if (!canDownloadZip(roles, flags)) return [];
  return flags.openInHoros ? ['RADIANT', 'HOROS'] : ['RADIANT'];
}

/** The download folder, or the spec's message when the study table setting has none. */
export function externalViewerFolder(
  openInRadiantPath: string | null | undefined,
): { ok: true; folder: string } | { ok: false; message: string } {
  const folder = openInRadiantPath?.trim() ?? '';
  return folder ? { ok: true, folder } : { ok: false, message: WORKLIST_MESSAGES.addDownloadFolderPath };
}

/** The saved file's full path on the user's computer, with the folder's own separator. */
export function savedFilePath(folder: string, fileName: string): string {
  const separator = folder.includes('\\') || /^[A-Za-z]:/.test(folder) ? '\\' : '/';
  const trimmed = folder.replace(/[\\/]+$/, '');
  return `${trimmed}${separator}${fileName}`;
}

/**
 * The URL that starts the viewer on the saved zip. RadiAnt's `radiant://` scheme takes one of its
 * command line switches (`n`) and its value (`v`): `-f <file>` opens a file, zip archives included.
 * Horos keeps OsiriX's URL scheme, whose `downloadURL` method imports (and with Display=YES shows)
 * the study at a URL: here the saved file's file:// URL, so the zip is not fetched twice.
 */
export function externalViewerLaunchUrl(viewer: TExternalViewer, filePath: string): string {
  if (viewer === 'RADIANT') return `radiant://?n=f&v=${encodeURIComponent(filePath)}`;
  const posix = filePath.replace(/\\/g, '/');
  const fileUrl = `file://${posix.startsWith('/') ? '' : '/'}${encodeURI(posix)}`;
  return `horos://?methodName=downloadURL&Display=YES&URL=${encodeURIComponent(`'${fileUrl}'`)}`;
}
