import { FORWARDING_MESSAGES, validateForwardingPacs } from '@radflow/core';

/**
 * Where `send-job/run` may C-STORE to (spec-core §7: `aeTitle`, `destination`). The values come from
 * the browser through the router's local API, so the router must not become a way for a web page to
 * open connections anywhere (SSRF, a LAN port scan). See FORWARD.md.
 */
export interface ForwardDestination {
  readonly aeTitle: string;
  readonly host: string;
  readonly port: number;
}

export interface DestinationPolicy {
  /**
   * The destinations the center configured on the router ("AE@host:port" or "host:port"). When
   * given, only these are accepted; when empty, any PACS on a private or loopback IPv4 address is.
   */
  readonly allowed?: readonly string[];
}

export const DESTINATION_MESSAGES = {
  invalidDestination: "Destination must be 'host:port' with an IPv4 address and a port 1-65535",
  notPrivate: 'Destination must be on the center network (a private or loopback address)',
  notConfigured: 'Destination is not one of the PACS configured on this router',
} as const;

export class DestinationError extends Error {
  override readonly name = 'DestinationError';
}

/** 'host:port' → parts; the host must be a dotted IPv4 address (as the center's PACS list keeps it). */
export function parseDestination(destination: string): { host: string; port: number } {
  const match = /^\s*([^:\s]+):(\d{1,5})\s*$/.exec(destination);
  if (!match) throw new DestinationError(DESTINATION_MESSAGES.invalidDestination);
  return { host: match[1]!, port: Number(match[2]) };
}

/** RFC 1918 private, loopback (127/8) and link-local (169.254/16) IPv4: the center's own network. */
export function isCenterNetworkAddress(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number, number, number];
  return (
    a === 10 ||
    a === 127 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}

/**
 * Validates an AE title and destination against the policy. The AE title, IP and port rules are the
 * forwarding PACS form's (core `validateForwardingPacs`), so a PACS the cloud accepted is accepted.
 */
export function checkDestination(
  input: { aeTitle: string; destination: string },
  policy: DestinationPolicy = {},
): ForwardDestination {
  const { host, port } = parseDestination(input.destination);
  const problem = validateForwardingPacs({ aeTitle: input.aeTitle, ip: host, port });
  if (problem === FORWARDING_MESSAGES.invalidIp || problem === FORWARDING_MESSAGES.invalidPort)
    throw new DestinationError(DESTINATION_MESSAGES.invalidDestination);
  if (problem) throw new DestinationError(problem);
  const aeTitle = input.aeTitle.trim();
  const allowed = policy.allowed ?? [];
  if (allowed.length > 0) {
    const listed = allowed.some((entry) => {
      const at = entry.lastIndexOf('@');
      const address = at >= 0 ? entry.slice(at + 1) : entry;
      const title = at >= 0 ? entry.slice(0, at).trim() : null;
      const parsed = parseDestinationSafe(address);
      return parsed?.host === host && parsed.port === port && (title === null || title === aeTitle);
    });
    if (!listed) throw new DestinationError(DESTINATION_MESSAGES.notConfigured);
  } else if (!isCenterNetworkAddress(host)) {
    throw new DestinationError(DESTINATION_MESSAGES.notPrivate);
  }
  return { aeTitle, host, port };
}

function parseDestinationSafe(destination: string) {
  try {
    return parseDestination(destination);
  } catch {
    return undefined;
  }
}

/**
 * A configured list as an environment variable gives it: entries separated by commas or spaces,
 * each "AE@host:port" or "host:port". A malformed entry throws, naming it.
 */
export function parseAllowedDestinations(text: string | undefined): string[] {
  const entries = (text ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const at = entry.lastIndexOf('@');
    const { host, port } = parseDestination(at >= 0 ? entry.slice(at + 1) : entry);
    const problem = validateForwardingPacs({ aeTitle: at >= 0 ? entry.slice(0, at) : 'ANY', ip: host, port });
    if (problem) throw new DestinationError(`Forward destination '${entry}': ${problem}`);
  }
  return entries;
}
