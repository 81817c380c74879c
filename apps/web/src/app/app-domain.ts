/**
 * spec-core §4 Session: when the group's appDomain differs from the current host the user is logged
 * out and sent there. Returns the address to go to, or null to stay. appDomain may be a bare host
 * (with an optional port) or a full origin.
 */
export function appDomainRedirect(
  appDomain: string | null | undefined,
  current: { host: string; protocol: string },
): string | null {
  const value = appDomain?.trim();
  if (!value) return null;
  let target: URL;
  try {
    target = new URL(/^https?:\/\//i.test(value) ? value : `${current.protocol}//${value}`);
  } catch {
    return null;
  }
  if (target.host.toLowerCase() === current.host.toLowerCase()) return null;
  return `${target.protocol}//${target.host}/login-page`;
}
