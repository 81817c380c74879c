import { buildShareUrl } from '@radflow/core';

/**
 * The address a share link opens (spec-core §2 "{origin}/share?link={shareLink}"): a row's
 * shareLink is the token; a full address is used as it is.
 */
export function shareUrlOf(shareLink: string, origin: string = window.location.origin): string {
  return /^https?:\/\//i.test(shareLink) ? shareLink : buildShareUrl(origin, shareLink);
}
