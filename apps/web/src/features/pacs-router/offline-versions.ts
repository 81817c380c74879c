import type { TOfflineVersion } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';
import type { TVersionRef } from '../report-editor/VersionsDialog';

/** What each version kept on the router is, in the Versions dialog's Kind column. */
export function offlineVersionKind(version: TOfflineVersion): string {
  const written = version.signedOff ? 'Signed off' : 'Saved';
  switch (version.state) {
    case 'WAITING':
      return `${written} on the router, not sent yet`;
    case 'IN_CLOUD':
      return `${written}, in the cloud${version.cloudVersion === null ? '' : ` as v${version.cloudVersion}`}`;
    case 'FROM_CLOUD':
      return 'The cloud’s text, kept when the conflict was resolved';
    case 'SET_ASIDE':
      return 'Set aside by the resolution, never sent';
  }
}

/**
 * The router's versions of an offline report as rows of the cloud's Versions dialog: numbered as
 * the router numbers them, compared the same way; a text set aside is listed but not compared by
 * default.
 */
export function offlineVersionRefs(versions: readonly TOfflineVersion[]): TVersionRef[] {
  return versions.map((v) => {
    const kindLabel = offlineVersionKind(v);
    return {
      key: `router:${v.localVersion}:${v.state}`,
      label: `v${v.localVersion} · ${kindLabel} · ${formatTimestamp(v.writtenAt)}`,
      reportLabel: v.name,
      kindLabel,
      main: v.state !== 'SET_ASIDE',
      version: {
        version: v.localVersion,
        content: v.content,
        savedBy: v.authorEmail,
        savedByName: v.authorName,
        savedAt: v.writtenAt,
      },
    };
  });
}
