import { canCreateStudy, canDownloadRouter, type TRole } from '@radflow/core';

/**
 * The drawer's fixed entries under the role menu (spec-core §2 Shell): Create Study for roles that
 * bring studies in, Support Videos, Keyboard Shortcut, Voice support, New Launch, and Download router
 * for centers (the router app is center only, spec-lab §6).
 */
export type TDrawerExtraKey =
  | 'create-study'
  | 'support-videos'
  | 'keyboard-shortcut'
  | 'voice-support'
  | 'new-launch'
  | 'download-router';

export interface TDrawerExtra {
  key: TDrawerExtraKey;
  label: string;
}

export function drawerExtras(roles: readonly TRole[]): TDrawerExtra[] {
  const extras: TDrawerExtra[] = [];
  if (canCreateStudy(roles)) extras.push({ key: 'create-study', label: 'Create Study' });
  extras.push(
    { key: 'support-videos', label: 'Support Videos' },
    { key: 'keyboard-shortcut', label: 'Keyboard Shortcut' },
    { key: 'voice-support', label: 'Voice support' },
    { key: 'new-launch', label: 'New Launch' },
  );
  if (canDownloadRouter(roles)) extras.push({ key: 'download-router', label: 'Download router' });
  return extras;
}
